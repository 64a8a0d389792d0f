#pragma once
// A choice named short enough to be read whole in the side column's combo box at the projector's font, with
// what it stands for (a card's bandwidth, a layer's shape) as the item's tooltip in the open list. Long item
// texts were cut in the closed box ("H100 SXM (3350 GB/"), which is all the class sees.
#include <QComboBox>
#include <QString>
#include <QVariant>

inline void addChoice(QComboBox* box, const QString& name, const QString& detail, const QVariant& data = {}) {
  box->addItem(name, data);
  if (!detail.isEmpty()) box->setItemData(box->count() - 1, detail, Qt::ToolTipRole);
}

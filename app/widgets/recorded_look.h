#pragma once
// Two recordings open at once are two sources, told apart on every chart the same way: the first in the
// device's colour with round hollow marks and a solid outline, the second in a deeper (dark theme: lighter)
// shade with square marks and a dashed outline. The device's colour still says CPU or GPU; the shade, mark and
// outline say which recording. Include qcustomplot.h only in .cpp files.
#include "theme.h"

#include <QColor>
#include <QPen>

class QCPGraph;

// The colour of recording `source` (0, 1, …) drawn in the device's colour `base`.
QColor recordedColor(const Theme& theme, const QColor& base, int source);
// The outline of a hollow bar of recording `source`.
QPen recordedBarPen(const Theme& theme, const QColor& base, int source);
// A recorded series: line and hollow marks in the recording's colour and mark shape.
void styleRecordedGraph(QCPGraph* graph, const Theme& theme, const QColor& base, int source);

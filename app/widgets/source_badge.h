#pragma once
// A small label that says where a figure came from: measured here, recorded on <device, date>, published:
// <source>, <device> (what others measured, models/published_results.h), or datasheet / model. Every figure on
// screen carries one.
#include <QLabel>

class SourceBadge : public QLabel {
  Q_OBJECT
 public:
  enum class Kind { MeasuredHere, Recorded, Datasheet, Model, Unavailable, Published };
  explicit SourceBadge(QWidget* parent = nullptr);
  SourceBadge(Kind kind, const QString& detail, QWidget* parent = nullptr);

  void set(Kind kind, const QString& detail = {});
  Kind kind() const { return m_kind; }
  static QString textFor(Kind kind, const QString& detail);
  // Called by the page on a theme change: the badge's font becomes the (new) application font.
  void followApplicationFont();

 protected:
  void changeEvent(QEvent* e) override;

 private:
  void setup();
  void restyle();
  void rewrap();
  Kind m_kind = Kind::Model;
  QString m_full;  // the text before line breaks
  QString m_detail;
};

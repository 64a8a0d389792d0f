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
  // About how many characters a line holds before the text breaks at a space (24 by default: badges beside the
  // title stay narrow). The page widens it when its badges stand in one column, where height is what they cost.
  void setLineChars(int chars);
  int lineChars() const { return m_lineChars; }
  // The badge's width were its lines broken at `chars` (the page measures before it chooses, so a badge's text
  // changes only when its line breaks do).
  int widthAt(int chars) const;
  // On a projector a recording's badge drops its date ("recorded on AMD EPYC"): one line where two took the
  // plot's height. The whole label stays in the tooltip. Only recorded badges change.
  void setCompact(bool compact);
  // The text the badge shows when compact (its whole text for every kind but a recording's).
  QString compactText() const;

 protected:
  void changeEvent(QEvent* e) override;

 private:
  void setup();
  void restyle();
  void rewrap();
  QStringList lines(int chars) const;
  QString shownText() const { return m_compact ? compactText() : m_full; }
  Kind m_kind = Kind::Model;
  QString m_full;  // the text before line breaks
  QString m_detail;
  int m_lineChars = 24;
  bool m_compact = false;
};

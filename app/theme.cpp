#include "theme.h"

#include <algorithm>
#include <cmath>

#include <QApplication>
#include <QFont>
#include <QPalette>

QColor Theme::precision(gpulab::Precision p) const {
  using gpulab::Precision;
  switch (p) {
    case Precision::fp64: return dark ? QColor(220, 220, 220) : okabe_ito::black;
    case Precision::fp32: return dark ? QColor(70, 160, 230) : okabe_ito::blue;
    case Precision::tf32: return okabe_ito::sky_blue;
    case Precision::fp16: return okabe_ito::orange;
    case Precision::bf16: return okabe_ito::vermillion;
    case Precision::int8: return okabe_ito::reddish_purple;
    case Precision::fp8: return dark ? okabe_ito::yellow : QColor(160, 150, 20);  // yellow is too faint on white
  }
  return text;
}

QString Theme::name() const {
  switch (mode) {
    case Mode::Normal: return QStringLiteral("normal");
    case Mode::ProjectorLight: return QStringLiteral("projector");
    case Mode::ProjectorDark: return QStringLiteral("projector-dark");
  }
  return QStringLiteral("normal");
}

Theme Theme::normal() {
  Theme t;
  t.mode = Mode::Normal;
  t.background = QColor(250, 250, 248);
  t.surface = QColor(255, 255, 255);
  t.text = QColor(25, 25, 30);
  t.mutedText = QColor(95, 95, 105);
  t.grid = QColor(222, 222, 226);
  t.border = QColor(200, 200, 206);
  t.accent = okabe_ito::blue;
  t.cpu = okabe_ito::orange;
  t.gpu = okabe_ito::bluish_green;
  t.memory = okabe_ito::sky_blue;
  t.model = QColor(110, 110, 120);
  t.good = okabe_ito::bluish_green;
  t.bad = okabe_ito::vermillion;
  t.warn = okabe_ito::orange;
  return t;
}

Theme Theme::projector(bool dark) {
  Theme t = normal();
  t.mode = dark ? Mode::ProjectorDark : Mode::ProjectorLight;
  t.dark = dark;
  // Readable from the back of a room at 1920×1080: plot text >= 20 pt, lines >= 3 px.
  t.baseFontPt = 15;
  t.titleFontPt = 30;
  t.takeawayFontPt = 20;
  t.plotFontPt = 20;
  t.lineWidth = 4;
  t.markerSize = 13;
  if (dark) {
    t.background = QColor(12, 12, 16);
    t.surface = QColor(24, 24, 30);
    t.text = QColor(250, 250, 250);
    t.mutedText = QColor(200, 200, 210);
    t.grid = QColor(70, 70, 80);
    t.border = QColor(110, 110, 120);
    t.accent = okabe_ito::sky_blue;
    t.model = QColor(190, 190, 200);
    t.gpu = QColor(0, 190, 140);  // the same hue, lifted for a dark background
  } else {
    t.background = QColor(255, 255, 255);
    t.surface = QColor(255, 255, 255);
    t.text = QColor(0, 0, 0);
    t.mutedText = QColor(40, 40, 48);
    t.grid = QColor(190, 190, 196);
    t.border = QColor(80, 80, 90);
    t.model = QColor(60, 60, 70);
    t.cpu = QColor(200, 130, 0);  // orange darkened for contrast on white
  }
  return t;
}

Theme Theme::projectorForScreen(bool dark, int screenHeight) {
  Theme t = projector(dark);
  if (screenHeight <= 0 || screenHeight >= 1080) return t;
  const double scale = std::max(0.75, screenHeight / 1080.0);
  auto scaled = [scale](int v) { return std::max(1, int(std::lround(v * scale))); };
  t.baseFontPt = scaled(t.baseFontPt);
  t.titleFontPt = scaled(t.titleFontPt);
  t.takeawayFontPt = scaled(t.takeawayFontPt);
  t.plotFontPt = scaled(t.plotFontPt);
  t.lineWidth = scaled(t.lineWidth);
  t.markerSize = scaled(t.markerSize);
  return t;
}

Theme Theme::byName(const QString& name) {
  if (name == QLatin1String("projector")) return projector(false);
  if (name == QLatin1String("projector-dark")) return projector(true);
  return normal();
}

void applyThemeToApplication(QApplication& app, const Theme& theme) {
  QPalette pal;
  pal.setColor(QPalette::Window, theme.background);
  pal.setColor(QPalette::Base, theme.surface);
  pal.setColor(QPalette::AlternateBase, theme.background);
  pal.setColor(QPalette::WindowText, theme.text);
  pal.setColor(QPalette::Text, theme.text);
  pal.setColor(QPalette::ButtonText, theme.text);
  pal.setColor(QPalette::Button, theme.dark ? theme.surface.lighter(140) : QColor(238, 238, 240));
  pal.setColor(QPalette::Highlight, theme.accent);
  pal.setColor(QPalette::HighlightedText, QColor(255, 255, 255));
  pal.setColor(QPalette::ToolTipBase, theme.surface);
  pal.setColor(QPalette::ToolTipText, theme.text);
  pal.setColor(QPalette::PlaceholderText, theme.mutedText);
  pal.setColor(QPalette::Disabled, QPalette::Text, theme.mutedText);
  pal.setColor(QPalette::Disabled, QPalette::WindowText, theme.mutedText);
  pal.setColor(QPalette::Disabled, QPalette::ButtonText, theme.mutedText);
  app.setPalette(pal);
  QFont f(QStringLiteral("DejaVu Sans"));
  f.setPointSize(theme.baseFontPt);
  app.setFont(f);
}

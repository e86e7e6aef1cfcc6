// The per-layer chart.
#include "platform/report/layer_chart.h"

#include <fmt/format.h>

#include <algorithm>

#include "platform/report/terminal_report.h"

namespace npu::report {
namespace {

constexpr int kLeft = 170, kRight = 40, kTop = 56, kRowHeight = 18, kWidth = 900;

std::string Escape(const std::string& s) {
  std::string out;
  for (char ch : s) {
    switch (ch) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += ch;
    }
  }
  return out;
}

std::string Legend() {
  return fmt::format(
      "<rect x='{0}' y='30' width='12' height='10' fill='#4c78a8'/>"
      "<text x='{1}' y='39'>cycles at the MAC array's peak (MACs / array size)</text>"
      "<rect x='{2}' y='30' width='12' height='10' fill='#f58518'/>"
      "<text x='{3}' y='39'>the rest of the layer's cycles</text>"
      "<line x1='{4}' y1='28' x2='{4}' y2='42' stroke='black' stroke-width='2'/>"
      "<text x='{5}' y='39'>predicted</text>"
      "<line x1='{6}' y1='28' x2='{6}' y2='42' stroke='#54a24b' stroke-width='2' "
      "stroke-dasharray='3,2'/><text x='{7}' y='39'>roofline</text>",
      kLeft, kLeft + 16, kLeft + 330, kLeft + 346, kLeft + 540, kLeft + 546, kLeft + 630,
      kLeft + 636);
}

}  // namespace

std::string ToLayerChartSvg(const RunReport& r) {
  const int plot = kWidth - kLeft - kRight;
  const int height = kTop + kRowHeight * int(r.layers.size()) + 40;
  uint64_t most = 1;
  for (const LayerReport& l : r.layers) {
    most = std::max({most, l.cycles, l.predicted_cycles, l.roofline_cycles});
  }
  auto x = [&](uint64_t cycles) { return kLeft + double(plot) * double(cycles) / double(most); };
  const double peak = double(r.config.mac().rows()) * r.config.mac().cols();
  std::string svg = fmt::format(
      "<svg xmlns='http://www.w3.org/2000/svg' width='{}' height='{}' font-family='sans-serif' "
      "font-size='11'><rect width='100%' height='100%' fill='white'/>"
      "<text x='{}' y='18' font-size='14'>{}: {} cycles over {} layers ({:.0f}% MAC "
      "utilisation)</text>",
      kWidth, height, kLeft, Escape(r.model), Grouped(r.cycles), r.layers.size(),
      100 * r.mac_utilisation);
  svg += Legend();
  for (size_t i = 0; i < r.layers.size(); ++i) {
    const LayerReport& l = r.layers[i];
    const int y = kTop + kRowHeight * int(i);
    const uint64_t ideal = std::min<uint64_t>(l.cycles, uint64_t(double(l.macs) / peak));
    svg += fmt::format(
        "<text x='{}' y='{}' text-anchor='end'>{}</text>"
        "<rect x='{}' y='{}' width='{:.1f}' height='12' fill='#4c78a8'><title>{}: {} cycles, {} at "
        "peak</title></rect>"
        "<rect x='{:.1f}' y='{}' width='{:.1f}' height='12' fill='#f58518'/>"
        "<line x1='{:.1f}' y1='{}' x2='{:.1f}' y2='{}' stroke='black' stroke-width='2'/>"
        "<line x1='{:.1f}' y1='{}' x2='{:.1f}' y2='{}' stroke='#54a24b' stroke-width='2' "
        "stroke-dasharray='3,2'/>",
        kLeft - 6, y + 10, Escape(l.name), kLeft, y, x(ideal) - kLeft, Escape(l.name), l.cycles,
        ideal, x(ideal), y, x(l.cycles) - x(ideal), x(l.predicted_cycles), y - 2,
        x(l.predicted_cycles), y + 14, x(l.roofline_cycles), y - 2, x(l.roofline_cycles), y + 14);
  }
  const int axis = kTop + kRowHeight * int(r.layers.size()) + 8;
  svg += fmt::format("<line x1='{}' y1='{}' x2='{}' y2='{}' stroke='black'/>", kLeft, axis,
                     kLeft + plot, axis);
  for (int k = 0; k <= 4; ++k) {
    svg += fmt::format("<text x='{:.1f}' y='{}' text-anchor='middle'>{}</text>",
                       kLeft + plot * k / 4.0, axis + 16, most * k / 4);
  }
  return svg + "</svg>\n";
}

}  // namespace npu::report

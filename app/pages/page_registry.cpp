#include "pages/page_registry.h"

#include <algorithm>

std::vector<PageFactory>& pageFactories() {
  static std::vector<PageFactory> factories;  // function-local: safe from static-initialisation order
  return factories;
}

std::vector<PageFactory> sortedPageFactories() {
  auto f = pageFactories();
  std::stable_sort(f.begin(), f.end(), [](const PageFactory& a, const PageFactory& b) { return a.order < b.order; });
  return f;
}

bool registerPage(int order, std::function<Page*(AppContext&)> create) {
  pageFactories().push_back({order, std::move(create)});
  return true;
}

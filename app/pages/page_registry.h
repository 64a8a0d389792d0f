#pragma once
// Pages register themselves at static-initialisation time, so adding a page is one new file:
//   GPULAB_REGISTER_PAGE(20, MatmulPage)
// The number is the position in the lesson order (10, 20, ... leave gaps).
#include <functional>
#include <vector>

class AppContext;
class Page;

struct PageFactory {
  int order = 0;
  std::function<Page*(AppContext&)> create;
};

std::vector<PageFactory>& pageFactories();  // sorted by order on read via sortedPageFactories()
std::vector<PageFactory> sortedPageFactories();
bool registerPage(int order, std::function<Page*(AppContext&)> create);

#define GPULAB_CONCAT_INNER(a, b) a##b
#define GPULAB_CONCAT(a, b) GPULAB_CONCAT_INNER(a, b)
#define GPULAB_REGISTER_PAGE(order, Class)                                                       \
  static const bool GPULAB_CONCAT(gpulab_registered_, __LINE__) =                                \
      registerPage(order, [](AppContext& ctx) -> Page* { return new Class(ctx); })

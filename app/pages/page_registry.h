#pragma once
// Pages register themselves at static-initialisation time, so no shared file lists them:
//   GPULAB_REGISTER_PAGE(20, MatmulPage)
// The number is the position in the lesson order (10, 20, ... leave gaps). A new page is a folder app/pages/<id>/
// and a plan gpu/experiments/plans/<id>.cpp, copied from a neighbour (docs/page-authoring.md).
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

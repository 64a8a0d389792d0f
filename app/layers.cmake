# gpulab_app_layer(NAME ENTRY...): makes ${CMAKE_CURRENT_BINARY_DIR}/layers/NAME, an include root holding links to
# only the listed entries of app/ (folders end in "/"; a nested one, pages/batch/model/, keeps its path), and sets GPULAB_LAYER_NAME to it. A layer's sources
# are compiled with that root instead of app/, so `#include "pages/page.h"` from a widget finds nothing: the
# compiler refuses an upward include. (The compiler first looks beside the including file, so the files in app/
# itself — the base layer and the main window — are kept honest by tests/cli/test_layers.sh instead.)
function(gpulab_app_layer name)
  set(root ${CMAKE_CURRENT_BINARY_DIR}/layers/${name})
  file(REMOVE_RECURSE ${root})
  file(MAKE_DIRECTORY ${root})
  foreach(entry ${ARGN})
    string(REGEX REPLACE "/$" "" entry_name "${entry}")
    get_filename_component(parent ${root}/${entry_name} DIRECTORY)
    file(MAKE_DIRECTORY ${parent})
    file(CREATE_LINK ${CMAKE_CURRENT_SOURCE_DIR}/${entry_name} ${root}/${entry_name} SYMBOLIC)
  endforeach()
  set(GPULAB_LAYER_${name} ${root} PARENT_SCOPE)
endfunction()

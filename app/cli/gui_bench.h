#pragma once
// `gpulab bench-gui`: how responsive the window stays while experiments run and sliders are dragged fast
// (the event loop's delay, p50/p99/max), and whether memory stays flat over many runs.
int runGuiBench(int argc, char** argv);

#pragma once
// `gpulab export …`: the plots of the GUI's pages written to PNG/SVG/PDF/CSV without a window, so slides can be
// rebuilt by a script (on a machine with no display it uses Qt's offscreen platform).
//
//   gpulab export --list
//   gpulab export --page ID [--plot ID] --out FILE [--format png|svg|pdf|csv] [options]
//   gpulab export --all --out DIR [--page ID] [--format png,svg,…|all] [options]
//   gpulab export --format json --open REC.json --out FILE.json
// options: --open REC.json (twice: side by side) --theme normal|projector|projector-dark --size WxH --scale S
//          --no-gpu
// Exit codes: 0 done, 2 bad usage (flag, page, plot, format, size, theme), 1 a file could not be read or written.

// argv[0] is the program, argv[1] is "export".
int runExportCli(int argc, char** argv);

#version 450
// The overhead floor: a dispatch that does nothing, so a submit + fence wait measures only the launch path.
// One binding is declared (never used) because every program here has at least one.
layout(local_size_x = 1) in;
layout(std430, binding = 0) writeonly buffer Out { float unused[]; };
void main() {}

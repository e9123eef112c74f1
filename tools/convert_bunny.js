#!/usr/bin/env node
// Converts the Stanford bunny of the npm package `bunny` (1.0.1, public
// domain) into assets/bunny.obj. Run once; the OBJ is committed, so neither
// the build nor the program needs node or the package:
//
//   cd /tmp && npm pack bunny && tar xzf bunny-1.0.1.tgz
//   node tools/convert_bunny.js /tmp/package/index.js > assets/bunny.obj
//
// The package's `positions` are [x, y, z] with y up (the bunny stands on
// y = 0, about 9.7 units tall); `cells` are 0-based, counter-clockwise seen
// from outside. The OBJ keeps both as they are: the program scales and
// places every loaded mesh itself.
'use strict';
const path = require('path');

if (process.argv.length !== 3) {
    process.stderr.write('usage: node convert_bunny.js PATH/TO/bunny/index.js > bunny.obj\n');
    process.exit(2);
}
const bunny = require(path.resolve(process.argv[2]));
const lines = [
    '# The Stanford bunny, from the Stanford 3D Scanning Repository',
    '# (http://graphics.stanford.edu/data/3Dscanrep/), as shipped by the npm',
    '# package bunny@1.0.1 (public domain). Converted by tools/convert_bunny.js.',
    `# ${bunny.positions.length} vertices, ${bunny.cells.length} triangles, y up.`,
];
for (const [x, y, z] of bunny.positions) {
    lines.push(`v ${x} ${y} ${z}`);
}
for (const [a, b, c] of bunny.cells) {
    lines.push(`f ${a + 1} ${b + 1} ${c + 1}`);  // OBJ indices start at 1
}
process.stdout.write(lines.join('\n') + '\n');

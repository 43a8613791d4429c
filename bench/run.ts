import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Bench, BenchResult } from './harness.js';

// Runs every bench/*.bench.ts (or those whose name contains argv[2]) and writes bench/results/<name>.json.
const here = dirname(fileURLToPath(import.meta.url));
const filter = process.argv[2];
const files = (await readdir(here)).filter((f) => f.endsWith('.bench.ts')).sort();
const results: BenchResult[] = [];
await mkdir(join(here, 'results'), { recursive: true });

for (const file of files) {
  const mod = (await import(pathToFileURL(join(here, file)).href)) as { benches: Bench[] };
  for (const bench of mod.benches) {
    if (filter && !bench.name.includes(filter) && !file.includes(filter)) continue;
    process.stdout.write(`running ${bench.name}… `);
    const result = await bench.run();
    results.push(result);
    const slug = bench.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
    await writeFile(
      join(here, 'results', `${slug}.json`),
      `${JSON.stringify({ ...result, node: process.version, date: new Date().toISOString() }, null, 2)}\n`,
    );
    console.log(result.met === false ? 'target missed' : 'done');
  }
}

console.log();
for (const r of results) {
  const metrics = Object.entries(r.metrics)
    .map(([k, v]) => `${k}=${v}`)
    .join('  ');
  const verdict = r.target ? `  [${r.target}: ${r.met ? 'met' : 'MISSED'}]` : '';
  console.log(`${r.name.padEnd(48)} ${metrics}${verdict}`);
}

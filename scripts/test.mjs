#!/usr/bin/env node
// `npm test`: every suite — typecheck, lint and the build side by side, then unit + integration (Vitest), then
// end-to-end in Chromium (Playwright, browser mode) and the Electron smoke test — then one line "N passed,
// N failed, N skipped" over all of them (each typecheck, lint and the build count as one check). The line is also
// written to test-results/summary.txt for .ci/run.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const results = join(root, 'test-results');
rmSync(results, { recursive: true, force: true });
mkdirSync(results, { recursive: true });
const bin = (name) => join(root, 'node_modules', '.bin', name);
const totals = { passed: 0, failed: 0, skipped: 0 };
const lines = [];

function run(label, command, args, env = {}) {
  console.log(`\n━━ ${label} ━━`);
  const started = Date.now();
  const r = spawnSync(command, args, { stdio: 'inherit', cwd: root, env: { ...process.env, ...env } });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  return { ok: r.status === 0, seconds };
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

function suite(label, command, args, jsonFile, count, env) {
  const { ok, seconds } = run(label, command, args, env);
  const report = readJson(jsonFile);
  if (!report) {
    totals.failed += 1;
    lines.push(`${label}: no report was written (exit ${ok ? 0 : 'non-zero'}) — counted as one failure`);
    return;
  }
  const c = count(report);
  if (!ok && c.failed === 0) c.failed = 1; // the runner failed outside any test (setup, collection)
  totals.passed += c.passed;
  totals.failed += c.failed;
  totals.skipped += c.skipped;
  lines.push(`${label}: ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped (${seconds}s)`);
}

/**
 * Checks that read the sources and write nothing the others read (the build writes out/, which only the end-to-end
 * tests use), run side by side: on two cores they take about half as long as one after the other. Each one's output
 * is printed whole when it ends, so it reads as if it had run alone.
 */
function checksSideBySide(list) {
  return Promise.all(
    list.map(
      ({ label, command, args }) =>
        new Promise((resolve) => {
          const started = Date.now();
          const child = spawn(command, args, { cwd: root, env: { ...process.env, FORCE_COLOR: '1' } });
          let output = '';
          child.stdout.on('data', (data) => (output += data));
          child.stderr.on('data', (data) => (output += data));
          let ended = false;
          const done = (ok, extra = '') => {
            if (ended) return;
            ended = true;
            const seconds = ((Date.now() - started) / 1000).toFixed(1);
            console.log(`\n━━ ${label} ━━\n${output}${extra}`);
            resolve({ label, ok, seconds });
          };
          child.on('error', (error) => done(false, String(error)));
          child.on('close', (code) => done(code === 0));
        }),
    ),
  ).then((results) =>
    results.map(({ label, ok, seconds }) => {
      totals[ok ? 'passed' : 'failed'] += 1;
      lines.push(`${label}: ${ok ? 'ok' : 'FAILED'} (${seconds}s)`);
      return ok;
    }),
  );
}

const [, , , built] = await checksSideBySide([
  { label: 'typecheck', command: bin('tsc'), args: ['--noEmit', '-p', 'tsconfig.node.json'] },
  { label: 'typecheck (renderer)', command: bin('vue-tsc'), args: ['--noEmit', '-p', 'tsconfig.web.json'] },
  { label: 'lint', command: bin('eslint'), args: ['--max-warnings', '0', '.'] },
  { label: 'build', command: bin('electron-vite'), args: ['build', '--logLevel', 'warn'] },
]);
suite(
  'vitest (unit, integration, emulator, renderer)',
  bin('vitest'),
  ['run', '--reporter=default', '--reporter=json', `--outputFile=${join(results, 'vitest.json')}`],
  join(results, 'vitest.json'),
  (r) => ({
    passed: r.numPassedTests,
    failed: r.numFailedTests,
    skipped: r.numPendingTests + r.numTodoTests,
  }),
);
const playwrightCount = (r) => ({
  passed: r.stats.expected + r.stats.flaky,
  failed: r.stats.unexpected,
  skipped: r.stats.skipped,
});
if (built) {
  suite(
    'end-to-end (playwright, chromium)',
    bin('playwright'),
    ['test', '--reporter=list,json'],
    join(results, 'e2e.json'),
    playwrightCount,
    {
      PLAYWRIGHT_JSON_OUTPUT_NAME: join(results, 'e2e.json'),
    },
  );
  suite(
    'electron smoke (playwright _electron)',
    bin('playwright'),
    ['test', '-c', 'test/electron/playwright.config.ts', '--reporter=list,json'],
    join(results, 'electron.json'),
    playwrightCount,
    {
      PLAYWRIGHT_JSON_OUTPUT_NAME: join(results, 'electron.json'),
    },
  );
} else {
  totals.failed += 1;
  lines.push('end-to-end: not run because the build failed — counted as one failure');
}

const summary = `${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`;
console.log(`\n━━ summary ━━\n${lines.join('\n')}\n`);
writeFileSync(join(results, 'summary.txt'), `${summary}\n`);
if (!existsSync(join(results, 'summary.txt'))) process.exit(1);
console.log(summary);
process.exit(totals.failed === 0 ? 0 : 1);

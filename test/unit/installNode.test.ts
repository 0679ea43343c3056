// A newcomer's `npm install`: the Node the README names installs every locked package without an "unsupported
// engine" warning, package.json's engines say the same, and every package with an install script has a decision in
// allowScripts (npm 11 warns about each one that has none). Read from the committed package-lock.json, so a
// dependency update that raises a Node requirement fails here until the README and engines follow.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const read = (file: string): string => readFileSync(join(root, file), 'utf8');

interface LockedPackage {
  version?: string;
  engines?: { node?: string } | string[];
  optional?: boolean;
  os?: string[];
  cpu?: string[];
  hasInstallScript?: boolean;
}
const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, LockedPackage> };
const pkg = JSON.parse(read('package.json')) as {
  engines: { node: string };
  allowScripts: Record<string, boolean>;
  devDependencies: Record<string, string>;
};

/** The lowest version of each `||` alternative of a range: the first Node of each line the range allows. */
function lowestOfEachLine(range: string): string[] {
  return range.split('||').map((part) => semver.minVersion(part.trim())!.version);
}

/** Packages npm installs on this kind of machine: platform builds for another os or cpu are skipped by npm. */
function installedHere(entry: LockedPackage): boolean {
  const fits = (wanted: string[] | undefined, actual: string): boolean =>
    !wanted ||
    wanted.some((w) => w === actual) ||
    (wanted.every((w) => w.startsWith('!')) && !wanted.includes(`!${actual}`));
  return !entry.optional || (fits(entry.os, 'linux') && fits(entry.cpu, 'x64'));
}

const nodeRanges = Object.entries(lock.packages).flatMap(([path, entry]) => {
  const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
  return path !== '' && range && installedHere(entry) ? [{ path, range }] : [];
});

describe("a newcomer's npm install", () => {
  it('every Node that package.json and the README allow satisfies every locked package (no unsupported-engine warning)', () => {
    const lowest = lowestOfEachLine(pkg.engines.node);
    expect(lowest.length).toBeGreaterThan(0);
    expect(nodeRanges.length).toBeGreaterThan(10);
    const unmet = lowest.flatMap((version) =>
      nodeRanges
        .filter(({ range }) => !semver.satisfies(version, range))
        .map(({ path, range }) => `${version}: ${path} wants ${range}`),
    );
    expect(unmet).toEqual([]);
  });

  it("Node 20 (Debian 13's) is outside the range, as npm will say when installing with it", () => {
    expect(semver.satisfies('20.20.2', pkg.engines.node)).toBe(false);
    expect(nodeRanges.some(({ range }) => !semver.satisfies('20.20.2', range))).toBe(true);
  });

  it('the README and the configuration page name exactly the Nodes of package.json, and the bundled Node is one of them', () => {
    const named = lowestOfEachLine(pkg.engines.node).map((v) => v.replace(/\.0$/, ''));
    for (const page of ['README.md', 'docs/configuration.md']) {
      const text = read(page).replace(/\s+/g, ' ');
      for (const version of named) expect(text, `${page} names Node ${version}`).toContain(`Node ${version}`);
      expect(text, `${page} no longer promises Node 18`).not.toMatch(/Node ≥ ?18|Node >= ?18/);
    }
    const bundled = lock.packages['node_modules/node']?.version;
    expect(bundled && semver.satisfies(bundled, pkg.engines.node)).toBe(true);
  });

  it('every locked package with an install script has a decision in allowScripts', () => {
    const undecided = Object.entries(lock.packages)
      .filter(([, entry]) => entry.hasInstallScript && installedHere(entry))
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length))
      .filter((name) => !(name in pkg.allowScripts));
    expect(undecided).toEqual([]);
  });
});

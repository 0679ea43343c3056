/**
 * One schema step. Versions are global and consecutive; a released step is never edited, only followed. Each
 * feature keeps its steps beside its code (`<feature>/migrations.ts`) and lists them on its feature object; the
 * core collects them in the order of the feature list (`schemaOf`).
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/**
 * Versions released as one step of several features' tables (the schema before features had folders of their own):
 * only these may be shared. A new step of any feature takes the next free version, its own.
 */
const SHARED_VERSIONS: readonly number[] = [2, 9, 10];

/**
 * The schema of a list of features: their steps by version. The versions released as one step of several features
 * (`SHARED_VERSIONS`) run their parts together, in the order of the list. Throws when the versions are not 1, 2,
 * 3… with none missing, or when two features claim any other version (a step that reused a released number would
 * never run on a file already past it).
 */
export function schemaOf(features: readonly { name: string; migrations?: readonly Migration[] }[]): Migration[] {
  const byVersion = new Map<number, Migration[]>();
  for (const feature of features)
    for (const step of feature.migrations ?? [])
      byVersion.set(step.version, [...(byVersion.get(step.version) ?? []), step]);
  const versions = [...byVersion.keys()].sort((a, b) => a - b);
  for (const [version, steps] of byVersion) {
    if (steps.length > 1 && !SHARED_VERSIONS.includes(version))
      throw new Error(
        `Two features claim schema step ${version} (${steps.map((s) => s.name).join('; ')}): a new step takes the next free version, ${versions.at(-1)! + 1}.`,
      );
  }
  versions.forEach((version, i) => {
    if (version !== i + 1)
      throw new Error(`The schema has no step ${i + 1} (the features' steps go up to ${versions.at(-1)}).`);
  });
  return versions.map((version) => {
    const steps = byVersion.get(version)!;
    return { version, name: steps.map((s) => s.name).join('; '), sql: steps.map((s) => s.sql).join('\n') };
  });
}

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
 * The schema of a list of features: their steps by version. Several features may add to one version (the first
 * schema was written as one step): their SQL runs together, in the order of the list, as that version. Throws
 * when the versions are not 1, 2, 3… with none missing.
 */
export function schemaOf(features: readonly { name: string; migrations?: readonly Migration[] }[]): Migration[] {
  const byVersion = new Map<number, Migration[]>();
  for (const feature of features)
    for (const step of feature.migrations ?? [])
      byVersion.set(step.version, [...(byVersion.get(step.version) ?? []), step]);
  const versions = [...byVersion.keys()].sort((a, b) => a - b);
  versions.forEach((version, i) => {
    if (version !== i + 1)
      throw new Error(`The schema has no step ${i + 1} (the features' steps go up to ${versions.at(-1)}).`);
  });
  return versions.map((version) => {
    const steps = byVersion.get(version)!;
    return { version, name: steps.map((s) => s.name).join('; '), sql: steps.map((s) => s.sql).join('\n') };
  });
}

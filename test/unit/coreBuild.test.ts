import { describe, expect, it } from 'vitest';
import { confWithoutSchemasPlugin } from '../../build/coreBuild';

describe("the core bundle without conf's schema validator (build/coreBuild.ts)", () => {
  it("replaces conf's schema validator only for conf, with one that refuses to be built", async () => {
    const plugin = confWithoutSchemasPlugin();
    const resolveId = plugin.resolveId as (source: string, importer?: string) => string | null;
    const load = plugin.load as (id: string) => string | null;
    const fromConf = '/app/node_modules/conf/dist/source/index.js';
    const id = resolveId('ajv/dist/2020.js', fromConf)!;
    expect(id).toMatch(/^\0/);
    expect(resolveId('ajv-formats', fromConf)).toMatch(/^\0/);
    // Fastify's validator and anything else keep the real modules.
    expect(resolveId('ajv-formats', '/app/node_modules/@fastify/ajv-compiler/index.js')).toBeNull();
    expect(resolveId('ajv/dist/2020.js', '/app/src/main/x.ts')).toBeNull();
    expect(resolveId('atomically', fromConf)).toBeNull();
    const stub = load(id)!;
    const url = `data:text/javascript,${encodeURIComponent(stub)}`;
    const mod = (await import(url)) as { Ajv2020: new () => unknown; default: { default: () => void } };
    expect(() => new mod.Ajv2020()).toThrow(/leaves out conf's schema validation/);
    expect(() => mod.default.default()).toThrow(/leaves out conf's schema validation/);
  });
});

import { rollup } from 'rollup';
import { describe, expect, it } from 'vitest';
import { asciiOnly, asciiOnlyPlugin, confWithoutSchemasPlugin } from '../../build/coreBuild';

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

describe('the core bundle in ASCII only (build/coreBuild.ts)', () => {
  /** What a module's source exports, run as a module. */
  const run = async (source: string) =>
    (await import(`data:text/javascript,${encodeURIComponent(source)}`)) as Record<string, unknown>;

  it('writes every other character as its escape, meaning the same in strings, templates, patterns and names', async () => {
    const source = [
      '// Su’s answer — a comment',
      'const café = "Su’s key — at least 12 characters…";',
      'export const text = café;',
      'export const template = `${1}×${2} “quoted”`;',
      'export const digits = /^[٠-٩]+$/.test("٣٤");',
      'export const emoji = "😀";',
      'export const emojiPattern = /^😀$/u.test("😀");',
      String.raw`export const escaped = "\é";`,
      String.raw`export const backslash = "\\é";`,
    ].join('\n');
    const ascii = asciiOnly(source);
    expect(ascii).toMatch(/^\p{ASCII}*$/u);
    expect(ascii).toContain(String.raw`Su\u2019s`);
    expect(await run(ascii)).toEqual(await run(source));
    expect((await run(ascii)).backslash).toBe('\\é');
  });

  it('leaves ASCII as it is, and refuses a tagged template whose raw text it would change', async () => {
    expect(asciiOnly('const a = "plain";')).toBe('const a = "plain";');
    const build = (code: string) =>
      rollup({
        input: 'entry',
        plugins: [{ name: 'entry', resolveId: (id) => id, load: () => code }, asciiOnlyPlugin()],
      }).then((bundle) => bundle.generate({ format: 'es' }));
    const built = await build('export const words = "Su’s";');
    expect(built.output[0].code).toContain(String.raw`"Su\u2019s"`);
    await expect(build('export const raw = String.raw`Su’s`;')).rejects.toThrow(/tagged template/);
  });
});

import { ESLint } from 'eslint';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// The lint rule that keeps dependencies pointing one way (eslint.config.js, eslint-plugin-boundaries): a folder may
// import only the folders before it in the layer order taken from the feature lists. Checked on probe files that
// do not exist, linted with the project's own configuration.

const root = join(import.meta.dirname, '..', '..');
const eslint = new ESLint({ cwd: root });

/** The boundaries rule's messages for `text` as if it were the file at `path`. */
async function boundaryErrors(path: string, text: string): Promise<string[]> {
  const [result] = await eslint.lintText(text, { filePath: join(root, path) });
  return result!.messages.filter((m) => m.ruleId === 'boundaries/dependencies').map((m) => m.message);
}

describe('dependencies point one way between the core’s folders', () => {
  it('a feature may import one listed before it', async () => {
    const text = "import { outboxFor } from '../outbox/outbox';\nexport const probe = outboxFor;\n";
    expect(await boundaryErrors('src/main/inbox/lintProbe.ts', text)).toEqual([]);
  }, 30_000);

  it('a feature may not import one listed after it: the error says which it may import', async () => {
    const text = "import { inboxFeature } from '../inbox/feature';\nexport const probe = inboxFeature;\n";
    const [message] = await boundaryErrors('src/main/outbox/lintProbe.ts', text);
    expect(message).toMatch(/^outbox may import only the folders before it \(config, db, gateway, provider, lib, app/);
  }, 30_000);

  it('the shared pieces import no feature, and no folder imports the composition roots', async () => {
    const feature = "import { ratesFeature } from '../rates/feature';\nexport const probe = ratesFeature;\n";
    expect(await boundaryErrors('src/main/db/lintProbe.ts', feature)).toHaveLength(1);
    const root = "import { FEATURES } from '../features';\nexport const probe = FEATURES;\n";
    expect(await boundaryErrors('src/main/payments/lintProbe.ts', root)).toEqual([
      expect.stringMatching(/put every feature together: no folder imports them/),
    ]);
    // The composition root itself may import every feature.
    expect(await boundaryErrors('src/main/lintProbe.ts', "export { inboxFeature } from './inbox/feature';\n")).toEqual(
      [],
    );
  }, 30_000);
});

describe('dependencies point one way between the renderer’s folders', () => {
  it('a feature may import one listed before it in the shell’s list, not one after it', async () => {
    const earlier =
      "import { useOutboxStore } from '@renderer/features/outbox/outboxStore';\nexport const probe = useOutboxStore;\n";
    expect(await boundaryErrors('src/renderer/src/features/inbox/lintProbe.ts', earlier)).toEqual([]);
    const later =
      "import { useInboxStore } from '@renderer/features/inbox/inboxStore';\nexport const probe = useInboxStore;\n";
    const [message] = await boundaryErrors('src/renderer/src/features/outbox/lintProbe.ts', later);
    expect(message).toMatch(/^outbox may import only the folders before it .*through a slot of the earlier feature/);
  }, 30_000);

  it('the shared pieces import no feature, and no feature imports the shell', async () => {
    const feature =
      "import { useRatesStore } from '@renderer/features/rates/ratesStore';\nexport const probe = useRatesStore;\n";
    expect(await boundaryErrors('src/renderer/src/ui/lintProbe.ts', feature)).toHaveLength(1);
    const shell = "import { FEATURES } from '@renderer/shell/features';\nexport const probe = FEATURES;\n";
    expect(await boundaryErrors('src/renderer/src/features/payments/lintProbe.ts', shell)).toEqual([
      expect.stringMatching(/The shell and its feature list put every feature together/),
    ]);
  }, 30_000);
});

describe('the receiving side is shared by the desktop and the mailbox, and imports neither', () => {
  it('src/receiving imports src/shared, never src/main, src/mailbox, src/renderer or src/emulator', async () => {
    const shared = "import { errorText } from '../shared/result';\nexport const probe = errorText;\n";
    expect(await boundaryErrors('src/receiving/lintProbe.ts', shared)).toEqual([]);
    for (const [what, from] of [
      ['the core', '../main/db/database'],
      ['the mailbox', '../mailbox/main'],
      ['the renderer', '../renderer/src/lib/feature'],
      ['the emulator', '../emulator/emulator'],
    ]) {
      const text = `import * as other from '${from}';\nexport const probe = other;\n`;
      expect(await boundaryErrors('src/receiving/lintProbe.ts', text), what).toEqual([
        expect.stringMatching(/^src\/receiving is shared by the desktop and the mailbox: it imports only src\/shared/),
      ]);
    }
  }, 30_000);

  it('the core may import src/receiving', async () => {
    const text = "import { startReceiver } from '../../receiving/receiver';\nexport const probe = startReceiver;\n";
    expect(await boundaryErrors('src/main/intake/lintProbe.ts', text)).toEqual([]);
  }, 30_000);

  it('src/mailbox imports src/receiving and src/shared only', async () => {
    const allowed =
      "import { startReceiver } from '../receiving/receiver';\nimport { errorText } from '../shared/result';\nexport const probe = [startReceiver, errorText];\n";
    expect(await boundaryErrors('src/mailbox/lintProbe.ts', allowed)).toEqual([]);
    for (const [what, from] of [
      ['the core', '../main/intake/ingest'],
      ['the renderer', '../renderer/src/lib/feature'],
      ['the emulator', '../emulator/emulator'],
    ]) {
      const text = `import * as other from '${from}';\nexport const probe = other;\n`;
      expect(await boundaryErrors('src/mailbox/lintProbe.ts', text), what).toEqual([
        expect.stringMatching(
          /^The mailbox is its own program: of the project, it imports src\/receiving and src\/shared only/,
        ),
      ]);
    }
  }, 30_000);

  it('the renderer imports neither', async () => {
    const text =
      "import { startReceiver } from '../../../../receiving/receiver';\nexport const probe = startReceiver;\n";
    expect(await boundaryErrors('src/renderer/src/features/intake/lintProbe.ts', text)).toEqual([
      expect.stringMatching(/^The renderer runs in the window/),
    ]);
  }, 30_000);
});

describe('only the demo provider runs the mailbox program in the core', () => {
  /** The no-restricted-imports messages for `text` as if it were the file at `path`. */
  async function restricted(path: string, text: string): Promise<string[]> {
    const [result] = await eslint.lintText(text, { filePath: join(root, path) });
    return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
  }
  const text = "import { startMailbox } from '../../mailbox/mailbox';\nexport const probe = startMailbox;\n";

  it('src/main/demo/demoProvider.ts and demoMailbox.ts may start it (the demo’s own mailbox, in-process)', async () => {
    expect(await restricted('src/main/demo/demoProvider.ts', text)).toEqual([]);
    expect(await restricted('src/main/demo/demoMailbox.ts', text)).toEqual([]);
  }, 30_000);

  it('any other feature folder may not, and the desktop’s own side (src/main/mailbox) stays importable', async () => {
    expect(await restricted('src/main/inbox/lintProbe.ts', text)).toEqual([
      expect.stringMatching(/Only src\/main\/demo\/demoProvider\.ts and demoMailbox\.ts run the mailbox program/),
    ]);
    expect(await restricted('src/main/demo/lintProbe.ts', text)).toHaveLength(1);
    const ownSide = "import { mailboxFeature } from '../mailbox/feature';\nexport const probe = mailboxFeature;\n";
    expect(await restricted('src/main/lintProbe.ts', ownSide)).toEqual([]);
  }, 30_000);
});

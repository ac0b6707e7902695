import { describe, expect, it } from 'vitest';
import { structureProblems } from './check-imports';

/** Issue 35 item 3: the structure check of `npm test` finds each arrow that runs the wrong way. */
describe('the structure check', () => {
  const check = (files: Record<string, string>) => structureProblems(Object.keys(files), (file) => files[file]!);

  it('passes on the repository as it is', () => {
    expect(structureProblems()).toEqual([]);
  });

  it('names an import from machines into web, web into server, server into web or machines, and contract into any of them', () => {
    const problems = check({
      'machines/quotes/quotes.machine.ts': "import { Card } from '../../src/web/screens/card';",
      'src/web/screens/list.tsx': "import type { Db } from '../../server/db/client';",
      'src/server/routes/a.ts': "export { x } from '../../web/x';\nconst m = await import('../../../machines/journey.machine');",
      'src/contract/money.ts': "import '../server/config';",
    });
    expect(problems).toEqual([
      expect.stringMatching(/^machines\/quotes\/quotes\.machine\.ts imports src\/web\/screens\/card: machines\/ must not import src\/web\//),
      expect.stringMatching(/^src\/web\/screens\/list\.tsx imports src\/server\/db\/client: src\/web\/ must not import src\/server\//),
      expect.stringMatching(/^src\/server\/routes\/a\.ts imports src\/web\/x: src\/server\/ must not import src\/web\//),
      expect.stringMatching(/^src\/server\/routes\/a\.ts imports machines\/journey\.machine: src\/server\/ must not import machines\//),
      expect.stringMatching(/^src\/contract\/money\.ts imports src\/server\/config: src\/contract\/ must not import src\/server\//),
    ]);
  });

  it("keeps the broker's console to itself, the contract, the theme and its catalogues, and out of the customer's app", () => {
    expect(
      check({
        'src/web/broker/main.tsx': "import { theme } from '../theme/theme';\nimport { CONSOLE_API } from '../../contract/broker-console';\nimport './console.css';\nconst ar = await import('../../../locales/ar/broker.po');",
        'src/web/broker/screens/a.screen.tsx': "import { formatMoney } from '../../i18n/format';\nimport { x } from '../../../../machines/journey.machine';",
        'src/web/app.tsx': "import { ConsoleApp } from './broker/console-app';",
      }),
    ).toEqual([
      expect.stringMatching(/^src\/web\/broker\/screens\/a\.screen\.tsx imports src\/web\/i18n\/format: src\/web\/broker\/ may import only itself/),
      expect.stringMatching(/^src\/web\/broker\/screens\/a\.screen\.tsx imports machines\/journey\.machine: src\/web\/broker\/ may import only itself/),
      expect.stringMatching(/^src\/web\/app\.tsx imports src\/web\/broker\/console-app: the customer's app \(src\/web\/\) must not import src\/web\/broker\//),
    ]);
  });

  it('names any import of app.ts but main.ts’s, and lets tests reach across', () => {
    expect(
      check({
        'src/server/main.ts': "const { createApp } = await import('./app');",
        'src/server/mail/mailer.ts': "import type { AppConfig } from '../app';",
        'src/server/routes/x.test.ts': "import { createApp } from '../app';\nimport '../../web/y';",
      }),
    ).toEqual([expect.stringMatching(/^src\/server\/mail\/mailer\.ts imports src\/server\/app: only src\/server\/main\.ts and tests may/)]);
  });
});

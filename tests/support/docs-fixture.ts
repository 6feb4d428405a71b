// 文档检查的样例课（tests/fixtures/docs/）：一门只有 s03、s04 两课的小课程（s04 没有 README），自带 API 报告，不用宪法的数据。
// tests/docs.test.ts（改坏的样例、规则细节）和 tests/error-table.test.ts 在它上面跑检查；样例不跑子进程，「试一下」由 fakeRun 假装。
import { join } from "node:path";
import { ROOT } from "../../tooling/course.ts";
import type { CommandRunner } from "../../tooling/demos.ts";
import { type DocsContext, contextFor, loadProject } from "../../tooling/docs/context.ts";

export const FIXTURES = join(ROOT, "tests", "fixtures", "docs");
/** tests/fixtures/docs/s03_fixture/code.ts 打印的东西（样例不跑它；tests/try-it-commands.test.ts 真跑一遍，证明就是这些）。 */
export const FIXTURE_OUTPUT = "hello,world\n（共 2 段）\n";
const fakeRun: CommandRunner = async (command) =>
  command === "npm run s03" ? { ok: true, stdout: FIXTURE_OUTPUT } : { ok: false, error: `the fixture runner only knows npm run s03, not ${command}` };
export const fixtures = loadProject({ root: FIXTURES, apiDir: join(FIXTURES, "api"), run: fakeRun, useConstitution: false });
const found = fixtures.lessons.find((l) => l.id === "s03");
if (!found) throw new Error("tests/fixtures/docs/s03_fixture/code.ts is missing");
export const fixtureLesson = found;
export const fixtureCtx: DocsContext = contextFor(fixtures, fixtureLesson);

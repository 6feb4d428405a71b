// 坏输入：课程接受的每一种不可信输入，一行一个，每行写明预期的结构化结果——一句清楚的错误，而且什么都没丢：
// 之前存下的消息一条不少，失败的安装不留半截（工具、命令、资料、扩展错误记录都和之前一样）。
// 每行对「引入这种输入的那一课」及之后的每一课都跑。表按收下输入的零件分在 tests/bad-input/rows-<零件>.ts，拼 agent 的底座在 tests/bad-input/harness.ts。
import { describe, expect, it } from "vitest";
import { lessonNumber } from "../tooling/course.ts";
import { lessonOf } from "../tooling/features.ts";
import { type Row, harness } from "./bad-input/harness.ts";
import { ROWS_EXTENSIONS } from "./bad-input/rows-extensions.ts";
import { ROWS_HOOKS } from "./bad-input/rows-hooks.ts";
import { ROWS_OUTPUT } from "./bad-input/rows-output.ts";
import { ROWS_PACKAGES } from "./bad-input/rows-packages.ts";
import { ROWS_PROVIDER } from "./bad-input/rows-provider.ts";
import { ROWS_TOOLS } from "./bad-input/rows-tools.ts";
import { ROWS_TRUST } from "./bad-input/rows-trust.ts";
import { ROWS_TURN } from "./bad-input/rows-turn.ts";
import { forLessonsFrom } from "./support/for-lessons.ts";

/** 一张表，按收下不可信输入的那个零件分成几份：provider、工具、钩子、一轮本身、扩展、输出、信任、包。 */
const ROWS: Row[] = [...ROWS_PROVIDER, ...ROWS_TOOLS, ...ROWS_HOOKS, ...ROWS_TURN, ...ROWS_EXTENSIONS, ...ROWS_OUTPUT, ...ROWS_TRUST, ...ROWS_PACKAGES];

describe("坏输入表", () => {
  it("每行 id 不重复", () => {
    expect(new Set(ROWS.map((row) => row.id)).size).toBe(ROWS.length);
  });
});

forLessonsFrom("s01", (id, load) => {
  for (const row of ROWS.filter((rw) => lessonNumber(lessonOf(rw.since)) <= lessonNumber(id))) {
    it(`${row.id}（${lessonOf(row.since)} 起）：${row.input}`, async () => {
      const mod = await load();
      expect(await row.run(harness(id, mod))).toEqual(row.expected);
    });
  }
});

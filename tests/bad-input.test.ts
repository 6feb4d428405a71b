// 坏输入：课程接受的每一种不可信输入，一行一个，每行写明预期的结构化结果——一句清楚的错误，而且什么都没丢：
// 之前存下的消息一条不少，失败的安装不留半截（工具、命令、资料、扩展错误记录都和之前一样）。
// 每行对「引入这种输入的那一课」及之后的每一课都跑。表分在 tests/bad-input/rows-*.ts，拼 agent 的底座在 tests/bad-input/harness.ts。
import { describe, expect, it } from "vitest";
import { lessonNumber } from "../tooling/course.ts";
import { lessonOf } from "../tooling/features.ts";
import { type Row, harness } from "./bad-input/harness.ts";
import { ROWS_BOUNDARIES_1_6 } from "./bad-input/rows-boundaries-1-6.ts";
import { ROWS_BOUNDARIES_7_11 } from "./bad-input/rows-boundaries-7-11.ts";
import { ROWS_S03_S07 } from "./bad-input/rows-s03-s07.ts";
import { ROWS_S09_S12 } from "./bad-input/rows-s09-s12.ts";
import { forLessonsFrom } from "./support/for-lessons.ts";

const ROWS: Row[] = [...ROWS_S03_S07, ...ROWS_S09_S12, ...ROWS_BOUNDARIES_1_6, ...ROWS_BOUNDARIES_7_11];

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

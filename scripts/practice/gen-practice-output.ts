// npm run gen:practice-output [-- s04 …]：每课 README「自己写一遍」里那段第一次 check 的输出，真跑出来再写回去。
// 对每一课生成刚挖好的练习文件（和 npm run practice 同一个 makePractice），放在 .tmp/ 下跑一次 check，
// 报告里的文件路径换成学习者看到的 practice/<课>/code.ts，取「你在第…阶段」起的那一段，换掉 README 里以它开头的 ```text 块。
// 其余的文字（挖了哪些、阶段列表）是手写的，由 tests/practice/readme.test.ts 核对；这段输出由 npm run test:practice 的 (a) 逐字核对。
// 两课一起跑（机器只有两个核，check 自己的 vitest 也开 worker）。
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LESSONS, ROOT, lessonDir } from "../../tooling/course.ts";
import { runChecks } from "../../tooling/practice/run-checks.ts";
import { practiceFile } from "../../tooling/practice/lesson-arg.ts";
import { PRACTICE_HEADING, practiceBlocks } from "../../tooling/practice/readme.ts";
import { STAGE_LINE, firstFailurePart, formatReport } from "../../tooling/practice/check-report.ts";
import { makePractice } from "../../tooling/practice/stub.ts";

const WORK = join(ROOT, ".tmp", "gen-practice-output");
const ids = process.argv.length > 2 ? process.argv.slice(2) : LESSONS;

async function outputOf(id: string): Promise<string> {
  const file = join(WORK, lessonDir(id), "code.ts");
  mkdirSync(join(file, ".."), { recursive: true });
  writeFileSync(file, makePractice(id).text);
  const outcome = await runChecks(id, file);
  const part = firstFailurePart(formatReport({ ...outcome, file: practiceFile(id) }, false));
  if (part === undefined) throw new Error(`${id}: a fresh practice file did not stop at a stage`);
  return part;
}

/** 换掉「自己写一遍」里以「你在第」开头的 ```text 块的内容（按 mdast 给的位置，别处一字不动）。 */
function replaceBlock(id: string, readme: string, output: string): string {
  const part = practiceBlocks(readme);
  const block = part?.blocks.find((b) => (b.lang ?? "text") === "text" && b.value.startsWith(STAGE_LINE));
  if (block?.position?.start.offset === undefined || block.position.end.offset === undefined) {
    throw new Error(`${id} README: no \`\`\`text block starting with 你在第 in ### ${PRACTICE_HEADING}`);
  }
  const { start, end } = { start: block.position.start.offset, end: block.position.end.offset };
  return `${readme.slice(0, start)}\`\`\`text\n${output}\n\`\`\`${readme.slice(end)}`;
}

const queue = [...ids];
await Promise.all(
  [0, 1].map(async () => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      const output = await outputOf(id);
      const path = join(ROOT, lessonDir(id), "README.md");
      const before = readFileSync(path, "utf8");
      const after = replaceBlock(id, before, output);
      if (after !== before) writeFileSync(path, after);
      console.log(`${id}: ${after === before ? "unchanged" : "rewrote"} the first check output in ${lessonDir(id)}/README.md`);
    }
  }),
);
rmSync(WORK, { recursive: true, force: true });

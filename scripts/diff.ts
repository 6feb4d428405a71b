// 读者的 diff：`npm run diff -- s03` 打印 s03 相对 s02 加了什么——API 报告的差异（新增、升级及其规则），
// 以及 code.ts 里新加和改掉的行。这是每节「接入主线」的原材料，也让读长文件的人只看新东西。
// 不带参数时依次打印每一对相邻的课。读的是课文件本身，不是提交的 tests/api/*.json。
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { buildApiReports } from "../tests/api/extract";
import { diffReports, isLiteralUnionGrowth } from "../tests/apidiff";
import { U1_UPGRADES } from "../tests/constitution";
import { LESSON_DIRS, ROOT } from "../tests/support/lessons";
import { diffLines } from "./linediff";

// 接到 head 之类提前关掉的管道时安静退出。
process.stdout.on("error", (error: NodeJS.ErrnoException) => process.exit(error.code === "EPIPE" ? 0 : 1));

const { reports } = buildApiReports();
const ids = Object.keys(reports).sort();
const wanted = process.argv.slice(2);
const unknown = wanted.filter((id) => !ids.includes(id));
if (unknown.length > 0) {
  console.error(`没有这一课：${unknown.join(", ")}（已有：${ids.join(" ")}）`);
  process.exit(2);
}

const codeOf = (id: string): string => {
  const dir = LESSON_DIRS.find((d) => d.startsWith(`${id}_`));
  return dir === undefined ? "" : readFileSync(join(ROOT, dir, "code.ts"), "utf8");
};

for (const [i, id] of ids.entries()) {
  if (i === 0 || (wanted.length > 0 && !wanted.includes(id))) continue;
  const prev = ids[i - 1];
  const { added, removed, changed } = diffReports(reports[prev], reports[id]);
  const verdict = (key: string, from: string, to: string | null): string => {
    if (U1_UPGRADES.some((u) => u.lesson === id && u.key === key)) return "这是升级（U1）";
    if (to !== null && isLiteralUnionGrowth(from, to)) return "联合只增，R1 允许";
    return "违反宪法：不在 U1 清单里";
  };

  console.log(`# ${prev} → ${id}\n\n## API：新增 ${added.length}，升级/改动 ${changed.length + removed.length}`);
  for (const key of added.filter((k) => !k.includes("@"))) console.log(`+ ${key}  ${reports[id][key]}`);
  for (const c of changed) console.log(`~ ${c.key}  ${c.from} → ${c.to}  [${verdict(c.key, c.from, c.to)}]`);
  for (const c of removed) console.log(`- ${c.key}  ${c.from}  [${verdict(c.key, c.from, null)}]`);

  const lines = diffLines(codeOf(prev), codeOf(id));
  const adds = lines.filter((d) => d.kind === "add");
  console.log(`\n## code.ts：新加 ${adds.length} 行，删掉 ${lines.length - adds.length - lines.filter((d) => d.kind === "same").length} 行`);
  for (const d of lines) {
    if (d.kind === "add") console.log(`+${String(d.line).padStart(4)}  ${d.text}`);
    else if (d.kind === "del") console.log(`-      ${d.text}`);
  }
  console.log("");
}

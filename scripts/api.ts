// npm run gen:api：重写 tests/api/sNN.json，每课的 API 报告（提取器是 tooling/api/extract.ts，键的写法见 tests/api/README.md）。
// 改了课文件之后跑；这些文件的 diff 就是这一课的 API 变化，评审时看得见。
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildApiReports } from "../tooling/api/extract.ts";
import { API_DIR } from "../tooling/course.ts";

const { reports, diagnostics } = buildApiReports();
for (const [id, report] of Object.entries(reports)) {
  // 键已经由提取器排好序
  writeFileSync(join(API_DIR, `${id}.json`), `${JSON.stringify(report, null, 2)}\n`);
  const errors = diagnostics[id] ?? [];
  if (errors.length > 0) console.warn(`${id}: ${errors.length} TS error(s), report may be wrong:\n  ${errors.join("\n  ")}`);
}
console.log(`wrote ${Object.keys(reports).length} report(s) to tests/api/: ${Object.keys(reports).join(" ")}`);

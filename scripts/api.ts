// npm run gen:api：重写 tests/api/sNN.json，每课的 API 报告（提取器是 tooling/api/extract.ts，键的写法见 tests/api/README.md）。
// 改了课文件之后跑；这些文件的 diff 就是这一课的 API 变化，评审时看得见。
import { buildApiReports } from "../tooling/api/extract.ts";
import { API_DIR } from "../tooling/course.ts";
import { writeGeneratedJson } from "../tooling/generated-json.ts";

const { reports, diagnostics } = buildApiReports();
for (const [id, errors] of Object.entries(diagnostics)) {
  if (errors.length > 0) console.warn(`${id}: ${errors.length} TS error(s), report may be wrong:\n  ${errors.join("\n  ")}`);
}
// 键已经由提取器排好序
const changed = writeGeneratedJson(API_DIR, new Map(Object.entries(reports).map(([id, report]) => [`${id}.json`, report])));
console.log(`${Object.keys(reports).length} report(s) in tests/api/, ${changed} file(s) written or removed`);

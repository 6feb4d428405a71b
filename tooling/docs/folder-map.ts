// 文档检查：写着「哪个文件夹、哪个文件放的是什么」的表和目录对得上。三张表用它：根 README「仓库布局」的目录表（每个顶层文件夹）、
// tests/README.md 的测试表（tests/ 下每个测试文件）和工具库表（tooling/ 下第一层的每个文件和文件夹）。写表的人要做到：
//
//   - 表的第一列用行内代码写名字：文件夹带结尾的 `/`（`tooling/`），一格可以写几个（`diff.test.ts`、`linediff.test.ts`）。
//     名字里的 `*` 代表任意一段（可以跨 `/`），`NN` 代表两位数字：`sNN_*/` 是每一节课的文件夹，`properties/*.test.ts` 是 properties/ 下每个测试。
//   - 该列出的每一项都有一个名字认领：名字和它一样、能套上它，或者是它所在的文件夹（`live/` 认领 live/ 下的每个测试）。
//   - 写出的每个名字都真有：不带 `*`、`NN` 的就在目录里，带的至少套得上一个。
//   - 目录表只写文件夹，另有「谁用」一栏，每行写出学习者、写课的人、维护者里的至少一种。
//
// 该列出什么、目录里有什么由调用方给（tooling/repo/files.ts 问 git），这里只读 Markdown 语法树（tooling/markdown.ts）。
import type { Table, TableRow } from "mdast";
import { toString } from "mdast-util-to-string";
import { HEAD, lineOf, parseReadme, partsOf, walk } from "../markdown.ts";
import { entriesUnder } from "../repo/files.ts";

/** 一张表在哪：文件（报错用）、哪一节（二级标题的文字，或开头那一块 HEAD）、表头第一格是什么。 */
export type MapTable = { file: string; part: string; header: string };

/** 根 README 的目录表，和它「谁用」一栏能写的三种人。 */
export const FOLDER_MAP: MapTable & { audience: string } = { file: "README.md", part: "仓库布局", header: "文件夹", audience: "谁用" };
export const AUDIENCES: readonly string[] = ["学习者", "写课的人", "维护者"];

/** tests/README.md 的两张表：开头那一块的测试表、「课程工具库 tooling/」一节的文件表。 */
export const TEST_MAP: MapTable = { file: "tests/README.md", part: HEAD, header: "文件" };
export const TOOLING_MAP: MapTable = { file: "tests/README.md", part: "课程工具库 tooling/", header: "文件" };

export type MapRow = { line: number; names: string[]; cells: string[] };

const cellText = (row: TableRow, i: number): string => (row.children[i] === undefined ? "" : toString(row.children[i]).trim());

/** 表头每一格的文字，和表的每一行（表头不算）：行号、第一格里行内代码写的名字、每一格的文字。找不到这张表就回一句为什么。 */
export function mapRows(markdown: string, table: MapTable): { header: string[]; rows: MapRow[] } | string {
  const part = partsOf(parseReadme(markdown)).find((p) => p.name === table.part);
  const where = table.part === HEAD ? "its opening part" : `## ${table.part}`;
  if (part === undefined) return `${table.file}: no ${where}`;
  const tables: Table[] = [];
  walk(part.nodes, (n) => {
    if (n.type === "table") tables.push(n);
  });
  const found = tables.find((t) => t.children[0] !== undefined && cellText(t.children[0], 0) === table.header);
  if (found === undefined) return `${table.file} ${where}: no table whose first column is 「${table.header}」`;
  const [header, ...body] = found.children;
  const rows = body.map((row) => {
    const names: string[] = [];
    walk([row.children[0]], (n) => {
      if (n.type === "inlineCode") names.push(n.value.trim());
    });
    return { line: lineOf(row), names, cells: row.children.map((_, i) => cellText(row, i)) };
  });
  return { header: header.children.map((_, i) => cellText(header, i)), rows };
}

/** 一个名字认得哪些路径：`*` 任意一段（可以跨 `/`），`NN` 两位数字，别的照字面。 */
export function nameMatcher(name: string): RegExp {
  const body = name.split(/(\*|NN)/).map((part) => (part === "*" ? ".*" : part === "NN" ? "\\d\\d" : part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")));
  return new RegExp(`^${body.join("")}$`);
}

const isPattern = (name: string): boolean => name.includes("*") || name.includes("NN");

/**
 * 表和目录对不上的地方，一处一行。`required` 是每一项都得有名字认领的路径，`entries` 是目录里真有的每个文件和文件夹
 * （文件夹带结尾的 `/`，都相对同一个地方）。
 */
export function mapProblems(table: MapTable, rows: readonly MapRow[], required: readonly string[], entries: readonly string[]): string[] {
  const out: string[] = [];
  const where = `${table.file} ${table.part === HEAD ? "" : `${table.part} `}table`;
  const names = rows.flatMap((r) => r.names.map((name) => ({ name, line: r.line, re: nameMatcher(name) })));
  for (const { name, line, re } of names) {
    const found = isPattern(name) ? entries.some((e) => re.test(e)) : entries.includes(name);
    const hint = !name.endsWith("/") && entries.includes(`${name}/`) ? ` (a folder is written \`${name}/\`)` : "";
    if (!found) out.push(`${where} line ${line}: \`${name}\` is not in the tree${hint}`);
  }
  for (const path of required) {
    const claimed = names.some(({ name, re }) => re.test(path) || (name.endsWith("/") && path.startsWith(name)));
    if (!claimed) out.push(`${where}: \`${path}\` is in the tree but in no row`);
  }
  return out;
}

/** 根 README 的目录表：每个顶层文件夹都在表里、表里的都有、只写文件夹，「谁用」一栏写的是那三种人。folders 带结尾的 `/`。 */
export function checkFolderMap(readme: string, folders: readonly string[]): string[] {
  const table = mapRows(readme, FOLDER_MAP);
  if (typeof table === "string") return [table];
  const where = `${FOLDER_MAP.file} ${FOLDER_MAP.part} table`;
  const out = mapProblems(FOLDER_MAP, table.rows, folders, folders);
  const audienceAt = table.header.indexOf(FOLDER_MAP.audience);
  if (audienceAt < 0) out.push(`${where}: no column 「${FOLDER_MAP.audience}」`);
  for (const row of table.rows) {
    const files = row.names.filter((n) => !n.endsWith("/"));
    if (files.length > 0) out.push(`${where} line ${row.line}: ${files.map((n) => `\`${n}\``).join(", ")} is not a folder (write folders as \`name/\`)`);
    if (audienceAt >= 0 && !AUDIENCES.some((a) => (row.cells[audienceAt] ?? "").includes(a))) {
      out.push(`${where} line ${row.line}: 「${FOLDER_MAP.audience}」 names none of ${AUDIENCES.join("、")}`);
    }
  }
  return out;
}

/** tests/README.md 的测试表要列的：tests/ 下每个测试文件（vitest 的 *.test.ts、*.bench.ts，证明用的 *.proof.ts），样例（fixtures/）里的不算。 */
const LISTED_TEST = /\.(test|proof|bench)\.ts$/;

/** tests/README.md 的两张表：测试表认领 tests/ 下每个测试文件，工具库表认领 tooling/ 第一层的每个文件和文件夹；写的名字都真有。files 是仓库里的文件。 */
export function checkTestsReadme(text: string, files: readonly string[]): string[] {
  const out: string[] = [];
  const tests = entriesUnder(files, "tests/");
  const tooling = entriesUnder(files, "tooling/");
  const firstLevel = tooling.filter((e) => !e.slice(0, -1).includes("/"));
  const maps = [
    { table: TEST_MAP, entries: tests, required: tests.filter((e) => LISTED_TEST.test(e) && !e.startsWith("fixtures/")) },
    { table: TOOLING_MAP, entries: tooling, required: firstLevel },
  ];
  for (const { table, entries, required } of maps) {
    const rows = mapRows(text, table);
    if (typeof rows === "string") out.push(rows);
    else out.push(...mapProblems(table, rows.rows, required, entries));
  }
  return out;
}

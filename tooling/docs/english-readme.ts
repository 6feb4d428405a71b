/**
 * 文档检查：README.en.md 跟着 README.md 走。写的人要做到：
 *
 *   - README.md 的第一段链到 README.en.md（英文入口放在最上面）。
 *   - 安装和上手的命令：README.en.md 的 `## Getting started` 和 README.md 的 `## 快速开始` 点名同一组 npm 命令——写在
 *     ```bash 代码块或行内代码里都算；比的是 `npm <命令>` / `npm run <脚本>`，参数和注释不算——而且每个 `npm run <脚本>`
 *     都是 package.json 里的脚本。
 *   - 课程表：两边的课程表（`## 课程目录`、`## The lessons`）每课一行、按顺序；第一格链到这一课的 README
 *     （`[s04](s04_tool_loop/README.md)`）。新零件那一栏点名的标识符和中文的一样：README.md 的格子里可以写成普通文字
 *     （每个 ASCII 标识符都算），README.en.md 写在行内代码里（只有代码算，英文的普通词随便写）。一边标成升级（粗体）的行，
 *     另一边也是粗体。
 *
 * 两份 README 都读成 Markdown 语法树（tooling/markdown.ts）。报错以 `README.en.md` 开头。
 */
import type { Nodes, TableCell, TableRow } from "mdast";
import { toString } from "mdast-util-to-string";
import { findSection, parseMarkdown, tableRows, walk } from "../markdown.ts";

/** 两边拿来比的小节，和新零件那一栏的表头。 */
export const ZH = { setup: "快速开始", lessons: "课程目录", parts: "本节新增的零件" } as const;
export const EN = { setup: "Getting started", lessons: "The lessons", parts: "New parts" } as const;

export type EnglishReadmeInput = {
  zh: string;
  en: string;
  /** 课程的每课文件夹，按顺序（`s01_one_turn` …）。 */
  lessonDirs: readonly string[];
  /** package.json 的脚本。 */
  scripts: Record<string, string>;
};

const IDENTIFIER = /[A-Za-z_$][\w$]*/g;
const SHELL_LANGS: ReadonlySet<string> = new Set(["bash", "sh", "shell"]);

/** `npm run diff -- s04` → `npm run diff`；`npm test # all` → `npm test`；不是 npm 命令 → undefined。 */
export function npmCommand(line: string): string | undefined {
  const words = line.replace(/#.*$/, "").trim().replace(/^\$\s+/, "").split(/\s+/);
  if (words[0] !== "npm" || words[1] === undefined) return undefined;
  const rest = words.slice(1).filter((w) => w !== "-s" && w !== "--silent");
  if (rest[0] === "run" || rest[0] === "run-script") return rest[1] === undefined ? undefined : `npm run ${rest[1]}`;
  return `npm ${rest[0]}`;
}

/** 一节里点名的 npm 命令：shell 代码块里的和行内代码里的。 */
function commandsIn(nodes: readonly Nodes[]): Set<string> {
  const lines: string[] = [];
  walk(nodes, (n) => {
    if (n.type === "code" && SHELL_LANGS.has(n.lang ?? "")) lines.push(...n.value.split("\n"));
    if (n.type === "inlineCode") lines.push(n.value);
  });
  return new Set(lines.map(npmCommand).filter((c): c is string => c !== undefined));
}

const hasNode = (node: Nodes, type: Nodes["type"]): boolean => {
  let found = false;
  walk([node], (n) => {
    found ||= n.type === type;
  });
  return found;
};

/** 一格里点名的标识符：中文那边是每个 ASCII 标识符，英文那边只算行内代码里的。 */
function identifiers(cell: TableCell, codeOnly: boolean): Set<string> {
  const texts: string[] = [];
  walk([cell], (n) => {
    if (n.type === "inlineCode" || (!codeOnly && n.type === "text")) texts.push(n.value);
  });
  return new Set(texts.flatMap((t) => t.match(IDENTIFIER) ?? []));
}

type LessonRow = { dir: string; line: number; parts: TableCell | undefined };

/** 一节里的课程表：每行按第一格链到的课文件夹认。 */
function lessonRows(nodes: readonly Nodes[], partsHeader: string): { rows: LessonRow[]; problem?: string } {
  const rows = tableRows(nodes);
  const header = rows[0];
  if (header === undefined) return { rows: [], problem: "has no table" };
  const partsAt = header.children.findIndex((c) => toString(c).trim() === partsHeader);
  if (partsAt < 0) return { rows: [], problem: `has no column "${partsHeader}"` };
  return { rows: rows.slice(1).map((r) => lessonRow(r, partsAt)) };
}

function lessonRow(row: TableRow, partsAt: number): LessonRow {
  let url = "";
  walk([row.children[0]], (n) => {
    if (n.type === "link" && url === "") url = n.url;
  });
  return { dir: url.split(/[/#]/)[0] ?? "", line: row.position?.start.line ?? 0, parts: row.children[partsAt] };
}

const list = (names: Iterable<string>): string => [...names].map((n) => `\`${n}\``).join(", ");

export function checkEnglishReadme({ zh, en, lessonDirs, scripts }: EnglishReadmeInput): string[] {
  const out: string[] = [];
  // 入口：README.md 的第一段链到 README.en.md
  const first = parseMarkdown(zh).children[0];
  let linked = false;
  if (first?.type === "paragraph") walk([first], (n) => (linked ||= n.type === "link" && n.url === "README.en.md"));
  if (!linked) out.push("README.en.md: README.md must link it in its first paragraph");

  // 上手的命令
  const zhSetup = findSection(zh, ZH.setup);
  const enSetup = findSection(en, EN.setup);
  if (zhSetup === undefined) out.push(`README.en.md: README.md has no ## ${ZH.setup}`);
  if (enSetup === undefined) out.push(`README.en.md: no ## ${EN.setup} (README.md has ## ${ZH.setup})`);
  if (zhSetup !== undefined && enSetup !== undefined) {
    const zhCommands = commandsIn(zhSetup.nodes);
    const enCommands = commandsIn(enSetup.nodes);
    const missing = [...zhCommands].filter((c) => !enCommands.has(c));
    const extra = [...enCommands].filter((c) => !zhCommands.has(c));
    if (missing.length > 0) out.push(`README.en.md ${EN.setup}: ${list(missing)} in README.md ${ZH.setup} but not here`);
    if (extra.length > 0) out.push(`README.en.md ${EN.setup}: ${list(extra)} not in README.md ${ZH.setup}`);
    for (const c of enCommands) {
      const script = c.startsWith("npm run ") ? c.slice("npm run ".length) : undefined;
      if (script !== undefined && scripts[script] === undefined) out.push(`README.en.md ${EN.setup}: \`${c}\` is not a script in package.json`);
    }
  }

  // 课程表
  const zhLessons = findSection(zh, ZH.lessons);
  const enLessons = findSection(en, EN.lessons);
  if (zhLessons === undefined) out.push(`README.en.md: README.md has no ## ${ZH.lessons}`);
  if (enLessons === undefined) out.push(`README.en.md: no ## ${EN.lessons} (README.md has ## ${ZH.lessons})`);
  if (zhLessons === undefined || enLessons === undefined) return out;
  const zhTable = lessonRows(zhLessons.nodes, ZH.parts);
  const enTable = lessonRows(enLessons.nodes, EN.parts);
  if (zhTable.problem !== undefined) out.push(`README.en.md: README.md ## ${ZH.lessons} ${zhTable.problem}`);
  if (enTable.problem !== undefined) out.push(`README.en.md ${EN.lessons}: ${enTable.problem}`);
  if (zhTable.problem !== undefined || enTable.problem !== undefined) return out;
  for (const [name, rows] of [["README.md", zhTable.rows], ["README.en.md", enTable.rows]] as const) {
    const dirs = rows.map((r) => r.dir);
    if (dirs.join() === lessonDirs.join()) continue;
    const missing = lessonDirs.filter((d) => !dirs.includes(d));
    const extra = dirs.filter((d) => !lessonDirs.includes(d));
    const what = [
      ...missing.map((d) => `no row for ${d}`),
      ...extra.map((d) => `a row for ${d || "(no link)"}, which is not a lesson`),
      ...(missing.length + extra.length === 0 ? [`rows out of order (${dirs.join(", ")})`] : []),
    ];
    out.push(`README.en.md ${EN.lessons}: ${name}'s lesson table has ${what.join("; ")}`);
  }
  for (const en of enTable.rows) {
    const zhRow = zhTable.rows.find((r) => r.dir === en.dir);
    if (zhRow?.parts === undefined || en.parts === undefined) continue;
    const zhNames = identifiers(zhRow.parts, false);
    const enNames = identifiers(en.parts, true);
    const missing = [...zhNames].filter((n) => !enNames.has(n));
    const extra = [...enNames].filter((n) => !zhNames.has(n));
    const where = `README.en.md ${EN.lessons} line ${en.line} (${en.dir})`;
    if (missing.length > 0) out.push(`${where}: ${EN.parts} lacks ${list(missing)} (README.md names it in ${ZH.parts})`);
    if (extra.length > 0) out.push(`${where}: ${EN.parts} names ${list(extra)}, which README.md's row does not`);
    if (hasNode(zhRow.parts, "strong") !== hasNode(en.parts, "strong")) {
      out.push(`${where}: the upgrade mark (bold) is in ${hasNode(zhRow.parts, "strong") ? "README.md" : "README.en.md"}'s row only`);
    }
  }
  return out;
}

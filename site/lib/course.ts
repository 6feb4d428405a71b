// 从仓库读出课程：每课的文件夹、README（标题、格言、Pi 边界）、code.ts、提交的 API 报告。
// 只用 node:fs 和 tooling/course.ts——VitePress 的配置也引用它来排侧栏，不能拖进测试框架。
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type ApiReport, LESSON_DIRS, ROOT, readApiReports } from "../../tooling/course.ts";

export { ROOT };
export type { ApiReport };
export const SITE = join(ROOT, "site");

export type Lesson = {
  /** "s04" */
  id: string;
  /** "s04_tool_loop" */
  dir: string;
  /** README 的 H1 全文，如 "s04: 工具循环 — 模型要工具，core 就去执行，再把结果交回给它" */
  heading: string;
  /** "工具循环" */
  topic: string;
  /** "模型要工具，core 就去执行，再把结果交回给它" */
  tagline: string;
  /** README 第一行引文：这一课的格言。 */
  motto: string;
  /** README 第二行引文去掉「Pi 边界：」。 */
  boundary: string;
  readme: string;
  code: string;
  api: ApiReport;
  prev: string | undefined;
  next: string | undefined;
};

const stripQuote = (line: string | undefined): string => (line ?? "").replace(/^>\s?/, "").trim();

/** 根 README 和毕业一章的开头：一级标题（没有就用 fallback）按第一个「：」分成前后两段，第一段引用去掉 `>`。 */
export function readmeTitle(readme: string, fallback: string): { heading: string; before: string; after: string; quote: string } {
  const lines = readme.split("\n");
  const heading = (lines.find((l) => l.startsWith("# ")) ?? `# ${fallback}`).slice(2).trim();
  const at = heading.indexOf("：");
  return { heading, before: at < 0 ? heading : heading.slice(0, at), after: at < 0 ? "" : heading.slice(at + 1), quote: stripQuote(lines.find((l) => l.startsWith(">"))) };
}

export function loadCourse(): Lesson[] {
  const dirs = LESSON_DIRS;
  const ids = dirs.map((dir) => dir.slice(0, 3));
  const reports = readApiReports();
  return dirs.map((dir, i) => {
    const id = ids[i];
    const readme = readFileSync(join(ROOT, dir, "README.md"), "utf8");
    const lines = readme.split("\n");
    const h1 = lines.find((l) => l.startsWith("# "));
    if (h1 === undefined) throw new Error(`${dir}/README.md has no H1`);
    const heading = h1.slice(2).trim();
    const m = /^s\d\d:\s*(.+?)\s+—\s+(.+)$/.exec(heading);
    const quotes = lines.filter((l) => l.startsWith(">"));
    const motto = stripQuote(quotes[0]);
    const boundary = stripQuote(quotes.find((q) => q.includes("Pi 边界："))).replace(/^Pi 边界：/, "");
    const api = reports.get(id);
    if (api === undefined) throw new Error(`tests/api/${id}.json is missing: run npm run gen:api`);
    return {
      id,
      dir,
      heading,
      topic: m?.[1] ?? heading,
      tagline: m?.[2] ?? "",
      motto,
      boundary,
      readme,
      code: readFileSync(join(ROOT, dir, "code.ts"), "utf8"),
      api,
      prev: ids[i - 1],
      next: ids[i + 1],
    };
  });
}

export const readRootReadme = (): string => readFileSync(join(ROOT, "README.md"), "utf8");

export { escapeHtml } from "./html.ts";

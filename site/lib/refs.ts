// 参考资料：EVOLUTION.md（宪法和决策）、GLOSSARY.md（术语表）、fidelity/DIFFERENCES.md（与 Pi 的差异）在阅读器里各有一页；
// 课文里指向仓库文件的相对链接改成站内链接；课文引用的编号链到它的解释；源码溯源里 Pi 的路径链到 Pi 仓库里钉住的那个版本。
import { existsSync, readFileSync } from "node:fs";
import { posix } from "node:path";
import type { MarkdownRenderer } from "vitepress";
import { hasPiPath, loadPiIndex } from "../../tooling/pi-index.ts";
import { type CodeIndex, codeAnchor, codeOfAnchor, isCode } from "./cited-codes.ts";
import { ROOT } from "./course.ts";

// ── Pi 的仓库 ─────────────────────────────────────────
/** Pi 的发布标签是 v 加版本号（v0.85.1、v1.1.0……），课程钉住 1.6.0。 */
export const PI_TAG = `v${loadPiIndex().version}`;
export const PI_REPO = `https://github.com/${loadPiIndex().repository}`;

/** Pi 仓库里的一个路径（packages/agent/src/agent-loop.ts、packages/coding-agent/docs/、…）在钉住的标签上的网址。 */
export function piUrl(path: string): string {
  const clean = path.replace(/^\.\//, "");
  return clean.endsWith("/") ? `${PI_REPO}/tree/${PI_TAG}/${clean.replace(/\/+$/, "")}` : `${PI_REPO}/blob/${PI_TAG}/${clean}`;
}

/** 像 Pi 路径的写法：packages/ 开头；只有 Pi 1.6.0 里真有的才链（tooling/pi-index.json）。 */
export function isPiPath(text: string): boolean {
  return /^(\.\/)?packages\/[\w@.\-/]+$/.test(text) && hasPiPath(text);
}

// ── 课程自己的仓库 ─────────────────────────────────────
/** package.json 里 repository 写的 GitHub 仓库（https://github.com/owner/name）。 */
export const COURSE_REPO = ((JSON.parse(readFileSync(posix.join(ROOT, "package.json"), "utf8")) as { repository?: { url?: string } }).repository?.url ?? "")
  .replace(/^git\+/, "")
  .replace(/\.git$/, "");

/** 站里没有页面、读者却会要的仓库文件：链到仓库里的那个文件（根 README 第一行的 English、最后一行的 LICENSE）。 */
const REPO_ONLY: ReadonlySet<string> = new Set(["README.en.md", "LICENSE"]);

// ── 参考页 ───────────────────────────────────────────
export type RefPage = {
  /** 站内页名：/evolution.html */
  id: "glossary" | "evolution" | "differences";
  /** 仓库里的文件 */
  source: string;
  title: string;
  /** 页首一句：这页是什么 */
  about: string;
  /** 表里第一格恰好是一个编号（R1、D4、F3）的行，给它一个锚点 */
  rowAnchors: boolean;
};

export const REF_PAGES: readonly RefPage[] = [
  { id: "glossary", source: "GLOSSARY.md", title: "术语表", about: "课文里引用的每个规则、决策、差异编号，和课程自己的用词，各用几句话说清。", rowAnchors: false },
  { id: "evolution", source: "EVOLUTION.md", title: "演进宪法", about: "每节课都要对得上的规则（R1–R8、U1、U2）、类型字典、课表、决策 D1…，以及哪条规则由哪个测试守着。", rowAnchors: true },
  { id: "differences", source: "fidelity/DIFFERENCES.md", title: "与 Pi 的差异", about: "同一组剧本跑真实 Pi 1.6.0 和课程的 mini Pi，两边每一处不同和它的理由（F1…）。", rowAnchors: true },
];

/** 仓库里现在有的参考页（术语表可能还没写）。 */
export function presentRefPages(root = ROOT): RefPage[] {
  return REF_PAGES.filter((p) => existsSync(posix.join(root, p.source)));
}

/** 参考页的 VitePress 源：原文放进 v-pre（不让 Vue 解释 {{ }}），原文里的 HTML 由 links.ts 只放行锚点。 */
export function refPageMarkdown(page: RefPage, text: string): string {
  const body = text.replace(/\r\n/g, "\n").replace(/^---\n[\s\S]*?\n---\n/, "");
  return [
    "---",
    `title: ${JSON.stringify(page.title)}`,
    "outline: [2, 3]",
    "pageClass: lp-ref-page",
    "prev: false",
    "next: false",
    "---",
    "",
    `<p class="lp-ref-about">${page.about}这一页就是仓库里的 <code>${page.source}</code>，由 npm run site 原样渲染。</p>`,
    "",
    "::: v-pre",
    body.trim(),
    ":::",
    "",
  ].join("\n");
}

// ── 锚点 ─────────────────────────────────────────────
/**
 * GitHub 给标题起锚点的办法（github-slugger）：小写，去掉字母、数字、连接符、连字符和空格以外的一切，空格换成连字符。
 * 阅读器用同一个办法，为 GitHub 写的链接（EVOLUTION.md#9-决策…）在站里也找得到。代码行的 L12 保持原样。
 */
export function githubSlug(text: string): string {
  const t = text.trim();
  if (/^L\d+$/.test(t)) return t;
  return t
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, "")
    .replace(/ /g, "-");
}

/** 表格第一格恰好是一个编号时，这一行的锚点（r1、d4、f3、r-写①）。 */
export function rowAnchor(cell: string): string | undefined {
  const t = cell.trim();
  return isCode(t) ? codeAnchor(t) : undefined;
}

type Token = ReturnType<MarkdownRenderer["parse"]>[number];
const inlineText = (token: Token | undefined): string =>
  (token?.children ?? [])
    .filter((t) => t.type === "text" || t.type === "code_inline")
    .map((t) => t.content)
    .join("");

/** 一份 markdown 里的锚点：显式的 <a id="…">、标题（同名的加 -1、-2，和 GitHub、markdown-it-anchor 一样）、编号行。 */
export function anchorsOf(text: string, md: MarkdownRenderer, rows: boolean): { explicit: string[]; headings: { text: string; id: string }[]; rows: string[] } {
  const tokens = md.parse(text, {});
  const explicit: string[] = [];
  const headings: { text: string; id: string }[] = [];
  const rowIds: string[] = [];
  const used = new Set<string>();
  tokens.forEach((t, i) => {
    const html = t.type === "html_block" ? [t.content] : (t.children ?? []).filter((c) => c.type === "html_inline").map((c) => c.content);
    for (const h of html) for (const m of h.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) explicit.push(m[1]);
    if (t.type === "heading_open") {
      const title = inlineText(tokens[i + 1]);
      let id = githubSlug(title);
      for (let k = 1; used.has(id); k++) id = `${githubSlug(title)}-${k}`;
      used.add(id);
      headings.push({ text: title, id });
    }
    if (rows && t.type === "tr_open") {
      const cell = tokens.slice(i + 1).find((c) => c.type === "inline");
      const id = rowAnchor(cell?.content ?? "");
      if (id !== undefined) rowIds.push(id);
    }
  });
  return { explicit, headings, rows: rowIds };
}

/**
 * 编号 → 站内链接。术语表里有锚点的编号链到术语表；其余的 R/U/D 编号链到 EVOLUTION.md 表里那一行，F 编号链到 DIFFERENCES.md；
 * §N 链到 EVOLUTION.md 里以 N. 开头的标题。
 */
export function codeIndex(md: MarkdownRenderer, root = ROOT): CodeIndex {
  const codes: CodeIndex = {};
  const read = (page: RefPage): string => readFileSync(posix.join(root, page.source), "utf8");
  for (const page of presentRefPages(root)) {
    const a = anchorsOf(read(page), md, page.rowAnchors);
    if (page.id === "glossary") {
      for (const id of a.explicit) {
        const code = codeOfAnchor(id);
        if (code !== undefined) codes[code] ??= `/glossary.html#${id}`;
      }
    }
  }
  for (const page of presentRefPages(root)) {
    if (page.id === "glossary") continue;
    const a = anchorsOf(read(page), md, page.rowAnchors);
    for (const id of [...new Set([...a.rows, ...a.explicit])]) {
      const code = codeOfAnchor(id);
      if (code !== undefined) codes[code] ??= `/${page.id}.html#${id}`;
    }
    if (page.id === "evolution") {
      for (const h of a.headings) {
        const m = /^§?(\d+(?:\.\d+)?)(?:[.\s]|$)/.exec(h.text);
        if (m !== null) codes[`§${m[1]}`] ??= `/evolution.html#${h.id}`;
      }
    }
  }
  return codes;
}

// ── 仓库里的相对链接 → 站内页面 ─────────────────────────
export type Site = {
  lessons: { id: string; dir: string }[];
  refs: RefPage[];
  /** 课以外的章（毕业一章，site/lib/chapter.ts）：站内页名和它的 README。 */
  chapters?: readonly { id: string; source: string }[];
};

/** 站内每一页是从仓库里哪个文件生成的（页面的 relativePath → 仓库路径）：用来解析页面里的相对链接。 */
export function pageSources(site: Site): Record<string, string> {
  const out: Record<string, string> = { "index.md": "README.md" };
  for (const l of site.lessons) out[`${l.id}.md`] = `${l.dir}/README.md`;
  for (const r of site.refs) out[`${r.id}.md`] = r.source;
  for (const c of site.chapters ?? []) out[`${c.id}.md`] = c.source;
  return out;
}

/**
 * 仓库里的一个文件（相对仓库根）在站里是哪一页。README.en.md、LICENSE 链到 GitHub 上的仓库；别的没有对应页面的
 * 返回 undefined（链接去掉，只留文字）。
 * hash 原样带上（# 开头或空串）；code.ts 没有 hash 时跳到页面的代码一节。
 */
export function readerUrl(repoPath: string, hash: string, site: Site): string | undefined {
  const p = posix.normalize(repoPath).replace(/^\.\//, "").replace(/\/$/, "");
  if (p === "README.md" || p === "." || p === "") return `/${hash}`;
  const lesson = site.lessons.find((l) => p === l.dir || p === `${l.dir}/README.md` || p === `${l.dir}/code.ts`);
  if (lesson !== undefined) return p.endsWith("code.ts") ? `/${lesson.id}.html${hash !== "" ? hash : "#code"}` : `/${lesson.id}.html${hash}`;
  const ref = site.refs.find((r) => r.source === p);
  if (ref !== undefined) return `/${ref.id}.html${hash}`;
  const chapter = site.chapters?.find((c) => p === c.source || p === posix.dirname(c.source));
  if (chapter !== undefined) return `/${chapter.id}.html${hash}`;
  if (REPO_ONLY.has(p) && COURSE_REPO.startsWith("https://github.com/")) return `${COURSE_REPO}/blob/main/${p}${hash}`;
  return undefined;
}

/** 页面源文件里的一个相对链接，解析成仓库路径；指到仓库外面的返回 undefined。 */
export function resolveRepoLink(sourceFile: string, href: string): { path: string; hash: string } | undefined {
  const [pathPart, ...rest] = href.split("#");
  const hash = rest.length > 0 ? `#${rest.join("#")}` : "";
  const path = pathPart === "" ? sourceFile : posix.normalize(posix.join(posix.dirname(sourceFile), decodeURI(pathPart)));
  if (path.startsWith("..") || path.startsWith("/")) return undefined;
  return { path, hash };
}

// 一课的代码页：本节新加的行高亮，前面几课已有的大段代码收进 <details> 默认折叠；和上一课的逐行差异；
// API 报告的新增做成卡片。全部是静态 HTML：不开 JavaScript 也能折叠、展开、切标签（单选框 + CSS）。
// 哪些行是新的，由 tooling/linediff.ts（npm run diff 用的同一个行差异）对比上一课的 code.ts 得出；
// 折叠起来的那段里有哪些声明、各来自哪一课，读的是声明上的 @since 标签。
import { diffLines } from "../../tooling/linediff.ts";
import { type Change, diffReports, isLiteralUnionGrowth } from "../../tooling/api/diff.ts";
import { ownerOf } from "../../tooling/api/keys.ts";
import { U1_UPGRADES } from "../../tooling/constitution/data.ts";
import type { ApiReport, Lesson } from "./course.ts";
import { type DiffStats, diffRows, unifiedHtml } from "./diffview.ts";
import { type CodeIndex, linkCodesHtml } from "./cited-codes.ts";
import { escapeHtml, escapeText, wrapIndent } from "./html.ts";

export type { DiffStats };

/** 新行前后各留几行旧代码作上下文。 */
export const CONTEXT = 2;
/** 旧代码连续超过这么多行才折叠；更短的直接显示。 */
export const MIN_FOLD = 5;

export type Declaration = { name: string; line: number; since: string | undefined; upgraded: string | undefined };

const DECL = /^export\s+(?:declare\s+)?(?:async\s+)?(?:function\*?|type|interface|class|const|let|enum)\s+([A-Za-z_$][\w$]*)/;

/** code.ts 里每个导出声明：名字、所在行，以及它 JSDoc 里的 @since / @upgraded。 */
export function declarations(code: string): Declaration[] {
  const lines = code.split("\n");
  const out: Declaration[] = [];
  lines.forEach((text, i) => {
    const m = DECL.exec(text);
    if (m === null) return;
    let since: string | undefined;
    let upgraded: string | undefined;
    for (let j = i - 1; j >= 0; j--) {
      const doc = lines[j].trim();
      if (!(doc.startsWith("*") || doc.startsWith("/**"))) break;
      since ??= /@since\s+(s\d\d)/.exec(doc)?.[1];
      upgraded ??= /@upgraded\s+(s\d\d[^*]*)/.exec(doc)?.[1]?.trim();
      if (doc.startsWith("/**")) break;
    }
    out.push({ name: m[1], line: i + 1, since, upgraded });
  });
  return out;
}

/** 新文件里哪些行是新加的（行号从 1 起）。第一课没有上一课：返回 undefined，表示「全部是新的」。 */
export function newLines(prevCode: string | undefined, code: string): Set<number> | undefined {
  if (prevCode === undefined) return undefined;
  return new Set(diffLines(prevCode, code).filter((d) => d.kind === "add").map((d) => d.line));
}

export type Segment = { kind: "lines"; from: number; to: number } | { kind: "fold"; from: number; to: number };

/** 把整份文件切成「显示的行」和「折叠的行」：新行和它前后 CONTEXT 行显示，其余连续 MIN_FOLD 行以上的旧代码折叠。 */
export function segments(total: number, fresh: Set<number> | undefined): Segment[] {
  if (fresh === undefined) return [{ kind: "lines", from: 1, to: total }];
  const shown = new Array<boolean>(total + 2).fill(false);
  for (const line of fresh) for (let k = line - CONTEXT; k <= line + CONTEXT; k++) if (k >= 1 && k <= total) shown[k] = true;
  const out: Segment[] = [];
  let line = 1;
  while (line <= total) {
    const start = line;
    const visible = shown[line];
    while (line <= total && shown[line] === visible) line++;
    const end = line - 1;
    const fold = !visible && end - start + 1 >= MIN_FOLD;
    const kind = fold ? "fold" : "lines";
    const last = out.at(-1);
    if (last !== undefined && last.kind === "lines" && kind === "lines") last.to = end;
    else out.push({ kind, from: start, to: end });
  }
  return out;
}

/**
 * 一行代码。行号不写成文字：CSS 计数器按段数出来（每段开头 counter-reset 到上一行的行号），页面小，复制时也不带行号。
 * 长行带上它的缩进（wrapIndent），宽屏上折行时续行对齐。
 */
const lineHtml = (n: number, html: string, fresh: boolean): string => `<div id=L${n}${fresh ? " class=n" : ""}${wrapIndent(html)}>${html}</div>`;

/**
 * 本节代码视图（一行 HTML，不含换行：它要原样嵌进 markdown 的 HTML 块）。
 * 折叠起来的旧代码只放转义过的原文，不带高亮：s12 有上千行旧代码，读者多半不展开，带上颜色标签这一页要重三成。
 * 展开时主题（CodeTools.vue）从 /lp/lines/sNN.json 取这一课高亮好的行换上；不开 JavaScript 时展开看到的是没上色的原文。
 */
export function codeViewHtml(lesson: Lesson, highlighted: string[], fresh: Set<number> | undefined, decls: Declaration[]): string {
  const parts: string[] = [];
  const source = lesson.code.split("\n");
  for (const seg of segments(highlighted.length, fresh)) {
    const rows: string[] = [];
    for (let n = seg.from; n <= seg.to; n++) {
      const html = seg.kind === "fold" ? escapeText(source[n - 1] ?? "") : highlighted[n - 1];
      rows.push(lineHtml(n, html, fresh !== undefined && fresh.has(n)));
    }
    const counter = ` style="counter-reset:ln ${seg.from - 1}"`;
    if (seg.kind === "lines") {
      parts.push(`<div class=lp-seg${counter}>${rows.join("")}</div>`);
      continue;
    }
    const inside = decls.filter((d) => d.line >= seg.from && d.line <= seg.to);
    const shown = inside.slice(0, 6).map((d) => `<code>${escapeHtml(d.name)}</code><small>${d.since ?? ""}</small>`);
    const more = inside.length > 6 ? `<span>等 ${inside.length} 个</span>` : "";
    const declText = inside.length > 0 ? `<span class="lp-fold-decls">${shown.join(" ")}${more}</span>` : "";
    parts.push(
      `<details class=lp-fold data-plain${counter}><summary><span class="lp-fold-range">第 ${seg.from}–${seg.to} 行</span>` +
        `<span class="lp-fold-what">前面几课已有的 ${seg.to - seg.from + 1} 行</span>${declText}</summary>` +
        `${rows.join("")}</details>`,
    );
  }
  const cls = fresh === undefined ? "lp-code lp-code-view lp-all-new" : "lp-code lp-code-view";
  return `<div class="${cls}" id="lp-code-${lesson.id}"><div class="lp-code-inner">${parts.join("")}</div></div>`;
}

/** 和上一课的逐行差异（合并视图，一行 HTML）。同一处改动里删掉的行在前、加上的行在后，和 git 一样。 */
export function diffViewHtml(prevHighlighted: string[], highlighted: string[], prevCode: string, code: string): { html: string; stats: DiffStats } {
  const { rows, stats } = diffRows(prevCode, code, prevHighlighted, highlighted);
  return { html: unifiedHtml(rows), stats };
}

// ── API 卡片 ─────────────────────────────────────────────
export type ApiCard = {
  owner: string;
  /** new：新声明；member：已有声明加了成员；upgrade：U1 升级；grown：字面量 union 只增地变大。 */
  kind: "new" | "member" | "upgrade" | "grown";
  /** 声明本身的描述，如 "export type"、"export function (…) => …"。 */
  what: string | undefined;
  since: string | undefined;
  line: number | undefined;
  members: { key: string; value: string }[];
  changes: (Change & { why?: string })[];
};

/** API 报告的差异，按声明分组成卡片：新声明在前（按代码里的位置），然后是已有声明的新成员和升级。 */
export function apiCards(lessonId: string, prev: ApiReport | undefined, next: ApiReport, decls: Declaration[]): ApiCard[] {
  const diff = prev === undefined ? { added: Object.keys(next), removed: [], changed: [] } : diffReports(prev, next);
  const cards = new Map<string, ApiCard>();
  const card = (owner: string): ApiCard => {
    let c = cards.get(owner);
    if (c === undefined) {
      const decl = decls.find((d) => d.name === owner);
      c = { owner, kind: "member", what: undefined, since: decl?.since, line: decl?.line, members: [], changes: [] };
      cards.set(owner, c);
    }
    return c;
  };
  for (const key of diff.added) {
    const owner = ownerOf(key);
    const c = card(owner);
    if (key === owner) {
      c.kind = "new";
      c.what = next[key];
    } else if (key === `${owner}@since`) {
      c.since = next[key];
    } else if (key === `${owner}@upgraded`) {
      c.kind = "upgrade";
    } else if (!(/^\|\[.*\]$/.test(key.slice(owner.length)) && next[key] === "object")) {
      // 「union 里多了一个对象成员」那一键只写着 object；它的字段另有 [type="…"].x 键，卡片上列字段就够了。
      c.members.push({ key: key.slice(owner.length), value: next[key] });
    }
  }
  for (const change of [...diff.changed, ...diff.removed]) {
    const owner = ownerOf(change.key);
    const c = card(owner);
    const u1 = U1_UPGRADES.find((u) => u.lesson === lessonId && u.key === change.key);
    if (u1 !== undefined) {
      c.kind = "upgrade";
      c.changes.push({ ...change, why: u1.why });
    } else {
      if (c.kind === "member" && change.to !== null && isLiteralUnionGrowth(change.from, change.to)) c.kind = "grown";
      c.changes.push(change);
    }
  }
  for (const c of cards.values()) c.what ??= next[c.owner];
  const rank = { new: 0, upgrade: 1, member: 2, grown: 3 } as const;
  return [...cards.values()].sort((a, b) => rank[a.kind] - rank[b.kind] || (a.line ?? 1e9) - (b.line ?? 1e9) || a.owner.localeCompare(b.owner));
}

const KIND_TEXT: Record<ApiCard["kind"], string> = { new: "新声明", member: "新成员", upgrade: "这是升级（U1）", grown: "union 只增" };

function whatText(what: string | undefined): { label: string; signature: string } {
  if (what === undefined) return { label: "", signature: "" };
  const exported = what.startsWith("export ");
  const rest = exported ? what.slice(7) : what;
  const m = /^(type|interface|class|function|const|let|enum)(.*)$/.exec(rest);
  const labels: Record<string, string> = { type: "类型", interface: "接口", class: "类", function: "函数", const: "常量", let: "变量", enum: "枚举" };
  const label = `${exported ? "" : "内部"}${labels[m?.[1] ?? ""] ?? rest}`;
  return { label, signature: (m?.[2] ?? "").replace(/^:\s*/, ": ").trim() };
}

export function apiCardsHtml(cards: ApiCard[], codes: CodeIndex = {}): string {
  if (cards.length === 0) return `<p class="lp-empty">这一课的 API 报告没有变化。</p>`;
  const items = cards.map((c) => {
    const { label, signature } = whatText(c.what);
    const link = c.line !== undefined ? `<a class="lp-card-line" href="#L${c.line}">第 ${c.line} 行</a>` : "";
    const since = c.since !== undefined ? `<span class="lp-card-since">@since ${c.since}</span>` : "";
    const members = c.members.map((m) => `<li><code class="lp-k">${escapeHtml(m.key)}</code> <code class="lp-v">${escapeHtml(m.value)}</code></li>`);
    const changes = c.changes.map(
      (ch) =>
        `<li class="lp-change"><code class="lp-k">${escapeHtml(ch.key.slice(c.owner.length) || ch.key)}</code> ` +
        `<code class="lp-v lp-from">${escapeHtml(ch.from)}</code> → <code class="lp-v">${ch.to === null ? "（去掉）" : escapeHtml(ch.to)}</code>` +
        `${ch.why !== undefined ? `<span class="lp-why">${linkCodesHtml(escapeHtml(ch.why), codes)}</span>` : ""}</li>`,
    );
    const list = members.length + changes.length > 0 ? `<ul>${[...members, ...changes].join("")}</ul>` : "";
    return (
      `<article class="lp-card lp-card-${c.kind}"><header><code class="lp-card-name">${escapeHtml(c.owner)}</code>` +
      `<span class="lp-card-badge">${KIND_TEXT[c.kind]}</span>${since}${link}</header>` +
      `${label !== "" ? `<p class="lp-card-what"><span>${escapeHtml(label)}</span>${signature !== "" ? ` <code>${escapeHtml(signature)}</code>` : ""}</p>` : ""}` +
      `${list}</article>`
    );
  });
  return `<div class="lp-cards">${items.join("")}</div>`;
}

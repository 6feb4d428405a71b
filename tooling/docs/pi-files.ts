/**
 * Docs check: Pi 名字和文件 (anywhere in the README). What a README writer must do to pass:
 *
 *   A Pi source path next to a name — `path` 的/里的/中的/：`Name` (also a list `A`、`B`), or
 *   `Name`（`path`）/ `Name`，在/见 `path`, or the same with a link to the path — says Name is defined in
 *   that file (or folder): it must be, in Pi 1.6.0.
 */
import { HEAD, type InlineLine, type Piece, linesOf, parseReadme } from "../markdown.ts";
import type { DocsContext, PiLookup } from "./context.ts";
import { piPathFiles } from "./pi-trace.ts";
import { FILE_EXT, classifySpan } from "./spans.ts";

/** Between a path and the names it holds: 的, 里的, 中的, 里的内部函数, 定义了, ：… */
const PATH_THEN_NAME = /^\s*(?:(?:里|中)?(?:定义了|导出了?|的)?(?:内部|导出的)?(?:函数|类型|类|接口|方法|常量|字段)?\s*[：:]?\s*)$/;
/** Between names of one list after a path: 、 和 与 及 (a comma ends the clause). */
const NAME_LIST = /^\s*(?:、|和|与|及)\s*$/;
/** Between a name and the path that holds it: （ , ，在 , 见 … */
const NAME_THEN_PATH = /^\s*(?:[（(]\s*(?:见|在|定义在|位于)?|[，,]?\s*(?:见|在|定义在|位于))\s*$/;

interface Cited {
  kind: "path" | "name";
  /** The path as written (for messages), or the name. */
  text: string;
  files: readonly string[];
  /** Name parts (`A.b` → ["A", "b"]). */
  parts: string[];
}

/** The Pi paths and names of one line, in order, with the prose between them. */
function citations(l: InlineLine, pi: PiLookup): (Cited | string)[] {
  const items: (Cited | string)[] = [];
  const text = (s: string): void => {
    if (typeof items.at(-1) === "string") items[items.length - 1] += s;
    else items.push(s);
  };
  for (let i = 0; i < l.pieces.length; i++) {
    const p = l.pieces[i] as Piece;
    const linked = p.link !== undefined ? piPathFiles(p.link, pi) : undefined;
    if (linked !== undefined) {
      // one item for the whole link text
      while (l.pieces[i + 1]?.link === p.link) i++;
      items.push({ kind: "path", text: p.link ?? "", files: linked, parts: [] });
      continue;
    }
    if (!p.code) {
      text(p.value);
      continue;
    }
    const t = p.value.trim();
    const files = t.includes("/") || FILE_EXT.test(t) ? piPathFiles(t, pi) : undefined;
    if (files !== undefined) {
      items.push({ kind: "path", text: t, files, parts: [] });
      continue;
    }
    const kind = classifySpan(t);
    if (kind.kind === "names" && kind.literals.length === 0 && kind.paths.length === 1) items.push({ kind: "name", text: t, files: [], parts: kind.paths[0] ?? [] });
    else text(" ¶ "); // anything else breaks a pairing
  }
  return items;
}

export function checkPiFiles(lessonId: string, readme: string, ctx: DocsContext): string[] {
  const out: string[] = [];
  const doc = parseReadme(readme);
  for (const { name: where, nodes } of [{ name: HEAD, nodes: doc.head }, ...doc.sections]) {
    for (const line of linesOf(nodes)) {
      const items = citations(line, ctx.pi);
      const check = (path: Cited, name: Cited): void => {
        if (path.files.length === 0 || !/\.(ts|js)$|\/$|^[^.]*$/.test(path.text.replace(/[#:].*$/, ""))) return; // missing paths are the trace check's; docs hold no names
        const shown = name.parts.join(".");
        const key = name.parts.slice(0, 2).join(".");
        if (path.files.some((f) => ctx.pi.nameIn(key, f))) return;
        const defining = ctx.pi.filesDefining(key);
        if (defining.length === 0 && where === "Pi 源码溯源") return; // the trace check reports names Pi does not have
        const elsewhere = defining.length > 0 ? `Pi 1.6.0 defines it in ${defining.slice(0, 3).join(", ")}${defining.length > 3 ? ", …" : ""}` : "no file of Pi 1.6.0 defines it";
        out.push(`${lessonId} README ${where}: \`${shown}\` is not defined in \`${path.text}\` (${elsewhere})`);
      };
      items.forEach((item, i) => {
        if (typeof item === "string" || item.kind !== "path") return;
        // path, then 的/里的/：, then a name or a list of names
        for (let j = i + 1; j + 1 < items.length; j += 2) {
          const between = items[j];
          const name = items[j + 1];
          if (typeof between !== "string" || typeof name === "string" || name.kind !== "name") break;
          if (!(j === i + 1 ? PATH_THEN_NAME : NAME_LIST).test(between)) break;
          check(item, name);
        }
        // a name, then （ / ，在 / 见, then the path
        const before = items[i - 1];
        const name = items[i - 2];
        if (typeof before === "string" && name !== undefined && typeof name !== "string" && name.kind === "name" && NAME_THEN_PATH.test(before)) check(item, name);
      });
    }
  }
  return [...new Set(out)];
}

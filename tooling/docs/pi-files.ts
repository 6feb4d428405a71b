/**
 * 文档检查：Pi 的名字和文件（README 的任何地方）。写 README 的人要做到：
 *
 *   Pi 的源文件路径挨着一个名字——`路径` 的/里的/中的/：`名字`（也可以是一串 `A`、`B`），或者
 *   `名字`（`路径`）/ `名字`，在/见 `路径`，或者同样的写法、路径换成链接——就是说这个名字定义在那个文件（或文件夹）里：
 *   在 Pi 1.6.0 里它必须真在那里。
 */
import { HEAD, type InlineLine, type Piece, linesOf, parseReadme } from "../markdown.ts";
import type { DocsContext, PiLookup } from "./context.ts";
import { piPathFiles } from "./pi-trace.ts";
import { FILE_EXT, classifySpan } from "./spans.ts";

/** 路径和它里面的名字之间的字：的、里的、中的、里的内部函数、定义了、：…… */
const PATH_THEN_NAME = /^\s*(?:(?:里|中)?(?:定义了|导出了?|的)?(?:内部|导出的)?(?:函数|类型|类|接口|方法|常量|字段)?\s*[：:]?\s*)$/;
/** 路径后面一串名字之间的字：、 和 与 及（逗号就到头了）。 */
const NAME_LIST = /^\s*(?:、|和|与|及)\s*$/;
/** 名字和定义它的路径之间的字：（、，在、见…… */
const NAME_THEN_PATH = /^\s*(?:[（(]\s*(?:见|在|定义在|位于)?|[，,]?\s*(?:见|在|定义在|位于))\s*$/;

interface Cited {
  kind: "path" | "name";
  /** 写着的路径（报错用），或者名字。 */
  text: string;
  files: readonly string[];
  /** 名字的几截（`A.b` → ["A", "b"]）。 */
  parts: string[];
}

/** 一行里的 Pi 路径和名字，按先后，连同它们之间的文字。 */
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
      // 整段链接文字算一项
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
    else text(" ¶ "); // 别的东西都把配对打断
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
        if (path.files.length === 0 || !/\.(ts|js)$|\/$|^[^.]*$/.test(path.text.replace(/[#:].*$/, ""))) return; // 不存在的路径归 Pi 源码溯源的检查报；文档里没有名字
        const shown = name.parts.join(".");
        const key = name.parts.slice(0, 2).join(".");
        if (path.files.some((f) => ctx.pi.nameIn(key, f))) return;
        const defining = ctx.pi.filesDefining(key);
        if (defining.length === 0 && where === "Pi 源码溯源") return; // Pi 没有的名字归 Pi 源码溯源的检查报
        const elsewhere = defining.length > 0 ? `Pi 1.6.0 defines it in ${defining.slice(0, 3).join(", ")}${defining.length > 3 ? ", …" : ""}` : "no file of Pi 1.6.0 defines it";
        out.push(`${lessonId} README ${where}: \`${shown}\` is not defined in \`${path.text}\` (${elsewhere})`);
      };
      items.forEach((item, i) => {
        if (typeof item === "string" || item.kind !== "path") return;
        // 先是路径，然后 的/里的/：，再是一个名字或一串名字
        for (let j = i + 1; j + 1 < items.length; j += 2) {
          const between = items[j];
          const name = items[j + 1];
          if (typeof between !== "string" || typeof name === "string" || name.kind !== "name") break;
          if (!(j === i + 1 ? PATH_THEN_NAME : NAME_LIST).test(between)) break;
          check(item, name);
        }
        // 先是名字，然后 （ / ，在 / 见，再是路径
        const before = items[i - 1];
        const name = items[i - 2];
        if (typeof before === "string" && name !== undefined && typeof name !== "string" && name.kind === "name" && NAME_THEN_PATH.test(before)) check(item, name);
      });
    }
  }
  return [...new Set(out)];
}

/**
 * 文档检查：禁用的套话（R-写④/⑤）。下面的 BANNED 是在整个文件上匹配的式子（套话中间换了行也藏不住）。
 */

/**
 * 哪个 README 都不许有的几类套话（§6.3），和禁它的那条规则。每类是一个式子，所以除了宪法自己举的例子，
 * `本节不讲`、`这一章不讲`、`接住这一轮` 也抓得到。
 */
export const BANNED: readonly { family: string; pattern: RegExp; rule: string }[] = [
  // R-写④：为了对仗硬凑的动词搭配，宪法自己点了名的
  { family: "接住一轮", pattern: /接住(?:这|那|每|整)?[一1]?[轮回]/, rule: "R-写④" },
  { family: "穿过 core", pattern: /穿过\s*(?:core|核心)/i, rule: "R-写④" },
  // R-写⑤：「本章不讲 X」照样把 X 引进来了
  { family: "本章不讲", pattern: /(?:本|这一?|此|这|那)(?:章|节|课|篇)(?:里|中)?(?:先|暂|暂时|还|就|并|也)?(?:不讲|不谈|不涉及|不展开|不讨论)/, rule: "R-写⑤" },
  // R-写④：读者在十节课的点睛里都指出过的套路
  { family: "这一节真正交付的", pattern: /(?:本|这一?|此)(?:章|节|课|篇)真正(?:要)?(?:交付|带来|留下)的?/, rule: "R-写④" },
];


export function checkBannedPhrases(lessonId: string, readme: string): string[] {
  // 去掉段落里的换行的全文（一句套话拆在两行上也还是一句），和每个字符在源文件里的行号（报错用）。
  const lines = readme.replace(/\r\n?/g, "\n").split("\n");
  let flat = "";
  const lineAt: number[] = [];
  lines.forEach((line, i) => {
    const t = line.trim();
    const sep = t === "" || (lines[i + 1] ?? "").trim() === "" ? "\n" : "";
    for (let k = 0; k < t.length + sep.length; k++) lineAt.push(i + 1);
    flat += t + sep;
  });
  const out: string[] = [];
  for (const { pattern, rule } of BANNED) {
    for (const m of flat.matchAll(new RegExp(pattern.source, `${pattern.flags.replace("g", "")}g`))) {
      out.push(`${lessonId} README: banned phrase 「${m[0]}」 at line ${lineAt[m.index] ?? 0} (${rule})`);
    }
  }
  return out.sort((a, b) => Number(/line (\d+)/.exec(a)?.[1]) - Number(/line (\d+)/.exec(b)?.[1]));
}

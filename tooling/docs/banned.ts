/**
 * Docs check: banned phrases (R-写④/⑤). BANNED below, as patterns over the whole file (a line break inside a
 * phrase does not hide it).
 */

/**
 * Phrase families no README may contain (§6.3), with the rule that bans them. Each is a pattern, so
 * `本节不讲`, `这一章不讲`, `接住这一轮` are caught as well as the constitution's own examples.
 */
export const BANNED: readonly { family: string; pattern: RegExp; rule: string }[] = [
  // R-写④: verb pairings made up for symmetry, named by the constitution itself
  { family: "接住一轮", pattern: /接住(?:这|那|每|整)?[一1]?[轮回]/, rule: "R-写④" },
  { family: "穿过 core", pattern: /穿过\s*(?:core|核心)/i, rule: "R-写④" },
  // R-写⑤: "本章不讲 X" introduces X all the same
  { family: "本章不讲", pattern: /(?:本|这一?|此|这|那)(?:章|节|课|篇)(?:里|中)?(?:先|暂|暂时|还|就|并|也)?(?:不讲|不谈|不涉及|不展开|不讨论)/, rule: "R-写⑤" },
  // R-写④: the formula readers flagged in ten lessons' 点睛
  { family: "这一节真正交付的", pattern: /(?:本|这一?|此)(?:章|节|课|篇)真正(?:要)?(?:交付|带来|留下)的?/, rule: "R-写④" },
];


export function checkBannedPhrases(lessonId: string, readme: string): string[] {
  // The text with line breaks inside a paragraph removed (so a phrase split over two lines is still one),
  // and the source line of each character, for the message.
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

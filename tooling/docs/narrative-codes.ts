/**
 * 文档检查：叙事里不写规则和决策的编号（issue 29 第 4 项）。README 要怎么写才过：
 *
 *   「问题」「解决方案」「工作原理」「接下来」四节是讲给读者听的：为什么这样写，先说会坏在哪、Pi 怎么做，
 *   不拿课程自己的规矩当理由，所以正文里不出现 R1–R8、U1/U2、R-写①–⑤、D1…、F1… 这些编号（写法和术语表认的一样，
 *   tooling/teaching/glossary.ts 的 CODE）。编号留在「接入主线」、Pi 源码溯源和 GLOSSARY.md 里。
 *   代码块（code.ts 的摘录、图、命令和输出）和行内代码不算正文。
 */
import { linesOf, parseReadme } from "../markdown.ts";
import { CODE } from "../teaching/glossary.ts";

/** 讲给读者听的几节。 */
export const NARRATIVE: readonly string[] = ["问题", "解决方案", "工作原理", "接下来"];

export function checkNarrativeCodes(lessonId: string, readme: string): string[] {
  const out: string[] = [];
  for (const section of parseReadme(readme).sections.filter((s) => NARRATIVE.includes(s.name))) {
    for (const line of linesOf(section.nodes)) {
      const prose = line.pieces.filter((p) => !p.code).map((p) => p.value).join("");
      for (const m of prose.matchAll(CODE)) {
        out.push(`${lessonId} README ${section.name}: line ${line.line} names ${m[1]}; give the reason itself (what breaks, what Pi does) and leave the code to 接入主线 and the Pi trace`);
      }
    }
  }
  return out;
}

// EVOLUTION.md 的 §0–§6 是用户给的宪法原文。为了在 GitHub 和网页阅读器里渲染成表格、代码块，
// 它被改写成了 Markdown；这里证明改写只加了标记、没动一个字：去掉标记后的文字和原文（tests/fixtures/seed/EVOLUTION.md）
// 逐字相同（空白不计）。
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Nodes, Root, RootContent } from "mdast";
import { describe, expect, it } from "vitest";
import { ROOT } from "../tooling/course.ts";
import { parseMarkdown } from "../tooling/markdown.ts";

/** 一个节点里读者看得到的文字：代码块和行内代码取原文，其余取文字，标记本身（#、|、-、```、转义符）都不算。 */
function textOf(node: Nodes): string {
  if ("value" in node) return node.value;
  if ("children" in node) return node.children.map((child) => textOf(child)).join(" ");
  return "";
}

/** 从「0. 核心立场」到「7.」之前：宪法原文的部分。 */
function constitutionBlocks(root: Root): RootContent[] {
  const isSection = (node: RootContent, prefix: string): boolean => node.type === "heading" && textOf(node).startsWith(prefix);
  const start = root.children.findIndex((node) => isSection(node, "0. "));
  const end = root.children.findIndex((node) => isSection(node, "7. "));
  if (start < 0 || end < start) throw new Error("EVOLUTION.md: cannot find §0 … §7 headings");
  return root.children.slice(start, end);
}

const squeeze = (text: string): string => text.replace(/\s+/g, "");

/** 原文是纯文本：列表项用「•」开头，分隔线是「---」。这两样是排版，和 Markdown 的列表、分隔线对应，去掉后比文字。 */
function seedWords(seed: string): string {
  const lines = seed.split("\n");
  const start = lines.findIndex((line) => line.startsWith("0. "));
  const end = lines.findIndex((line) => line.startsWith("7. "));
  return squeeze(
    lines
      .slice(start, end)
      .filter((line) => line.trim() !== "---")
      .map((line) => line.replace(/^\s*• /, ""))
      .join("\n"),
  );
}

export function renderedWords(markdown: string): string {
  const root = parseMarkdown(markdown);
  return squeeze(constitutionBlocks(root).map((node) => textOf(node)).join("\n"));
}

describe("EVOLUTION.md 渲染成 Markdown，宪法原文一字未改", () => {
  const seed = readFileSync(join(ROOT, "tests/fixtures/seed/EVOLUTION.md"), "utf8");
  const project = readFileSync(join(ROOT, "EVOLUTION.md"), "utf8");

  it("§0–§6 去掉 Markdown 标记后等于原文", () => {
    expect(renderedWords(project)).toBe(seedWords(seed));
  });

  it("原文的表格成了表格，字典和模板在代码块里（不是一段段纯文本或真标题）", () => {
    const root = parseMarkdown(project);
    const blocks = constitutionBlocks(root);
    expect(blocks.filter((node) => node.type === "table")).toHaveLength(4);
    const code = blocks.filter((node) => node.type === "code").map((node) => textOf(node));
    expect(code.some((text) => text.includes("type StopReason ="))).toBe(true);
    expect(code.some((text) => text.startsWith("# sXX:"))).toBe(true);
    expect(blocks.some((node) => node.type === "heading" && textOf(node).startsWith("问题"))).toBe(false);
  });

  it("改了一个字就报出来（这条检查本身能失败）", () => {
    expect(renderedWords(project.replace("字段只增不删", "字段只增少删"))).not.toBe(seedWords(seed));
    expect(renderedWords(project.replace("| R5 |", "| R9 |"))).not.toBe(seedWords(seed));
  });
});

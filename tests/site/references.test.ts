// 网站生成器的参考页和链接（site/lib/refs.ts、links.ts、cited-codes.ts、diagrams.ts）：锚点和 GitHub 的一样，仓库里的相对链接
// 变成站内页面，编号链到它的解释，Pi 的路径链到 v1.6.0，Mermaid 图画成两份 SVG。样例是临时目录里的一份小 EVOLUTION.md、
// 术语表和差异表。
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createMarkdownRenderer, disposeMdItInstance } from "vitepress";
import { afterAll, describe, expect, it } from "vitest";
import { splitCodes } from "../../site/lib/cited-codes.ts";
import { loadCourse } from "../../site/lib/course.ts";
import { diagramId, renderDiagram } from "../../site/lib/diagrams.ts";
import { readerLinks } from "../../site/lib/links.ts";
import { type Site, REF_PAGES, codeIndex, githubSlug, piUrl, presentRefPages, readerUrl, refPageMarkdown, resolveRepoLink } from "../../site/lib/refs.ts";

const lessons = loadCourse();

describe("网站生成器：参考资料和链接", () => {
  // 参考资料的样例：Markdown 版的 EVOLUTION.md（表、§ 标题）、约定格式的术语表、差异表
  const root = mkdtempSync(join(tmpdir(), "lp-site-"));
  mkdirSync(join(root, "fidelity"));
  const evolution = [
    "# 宪法",
    "",
    "## 1. 元规则（约束所有类型演化）",
    "",
    "| 规则 | 内容 |",
    "|---|---|",
    "| R1 | 字段只增不删 |",
    "| R4 | 错误不崩溃 |",
    "",
    "stream(input): AsyncGenerator<ProviderEvent> 和 <details> 都不是标签，{{ x }} 也不是插值。",
    "",
    "## 9. 决策",
    "",
    "| 编号 | 决策 |",
    "|---|---|",
    "| D4 | 每次回答一条助手消息，见 F13 |",
    "| D23 | afterToolCall |",
    "",
  ].join("\n");
  const glossary = ["# 术语表", "", '<a id="r1"></a>**R1** 字段只增不删，和 R4 一起看。', "", '<a id="d4"></a>**D4** 见 [EVOLUTION](EVOLUTION.md#9-决策)。', "", '<a id="term-快照"></a>**快照**', ""].join("\n");
  const differences = ["# 差异", "", "| 编号 | 为什么 |", "|---|---|", "| F13 | 见 D4 |", "| F2 | D23 |", ""].join("\n");
  writeFileSync(join(root, "EVOLUTION.md"), evolution);
  writeFileSync(join(root, "GLOSSARY.md"), glossary);
  writeFileSync(join(root, "fidelity", "DIFFERENCES.md"), differences);
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
    disposeMdItInstance();
  });
  const site: Site = { lessons: lessons.map((l) => ({ id: l.id, dir: l.dir })), refs: presentRefPages(root) };
  // 测试里不用 VitePress 自己的 shiki（它在后台异步加载语言，渲染完就扔掉渲染器会报错）
  const plainBlock = (code: string): string => `<pre v-pre><code>${code.replace(/&/g, "&amp;").replace(/</g, "&lt;")}</code></pre>`;

  it("锚点和 GitHub 的一样（为 GitHub 写的链接在站里也对得上）；代码行号的 L12 不变", () => {
    expect(githubSlug("9. 决策（宪法有歧义或自相矛盾处，本仓库的读法）")).toBe("9-决策宪法有歧义或自相矛盾处本仓库的读法");
    expect(githubSlug("Hello, World! (v1.6.0)")).toBe("hello-world-v160");
    expect(githubSlug("R-写④ 用自然中文")).toBe("r-写④-用自然中文");
    expect(githubSlug("1. 模型怎么说「我要调工具」")).toBe("1-模型怎么说我要调工具");
    expect(githubSlug("L12")).toBe("L12");
  });

  it("仓库里的相对链接 → 站内页面；站里没有的文件、仓库外的路径不链", () => {
    const from = "s04_tool_loop/README.md";
    const url = (href: string): string | undefined => {
      const r = resolveRepoLink(from, href);
      return r === undefined ? undefined : readerUrl(r.path, r.hash, site);
    };
    expect(url("../fidelity/DIFFERENCES.md")).toBe("/differences.html");
    expect(url("../EVOLUTION.md#9-决策")).toBe("/evolution.html#9-决策");
    expect(url("../GLOSSARY.md#r1")).toBe("/glossary.html#r1");
    expect(url("../s03_stream/README.md")).toBe("/s03.html");
    expect(url("../s03_stream/")).toBe("/s03.html");
    expect(url("code.ts")).toBe("/s04.html#code");
    expect(url("code.ts#L12")).toBe("/s04.html#L12");
    expect(url("../README.md#怎么读")).toBe("/#怎么读");
    expect(url("../tests/golden.test.ts")).toBeUndefined();
    // 站里没有、读者却会要的两份：链到 package.json 写的仓库
    expect(url("../README.en.md")).toBe("https://github.com/learn-pi-agent/learn-pi-agent/blob/main/README.en.md");
    expect(url("../LICENSE")).toBe("https://github.com/learn-pi-agent/learn-pi-agent/blob/main/LICENSE");
    expect(resolveRepoLink(from, "../../outside.md")).toBeUndefined();
    // 没有术语表时，指向它的链接不链（站里没有这一页）
    expect(readerUrl("GLOSSARY.md", "", { ...site, refs: site.refs.filter((r) => r.id !== "glossary") })).toBeUndefined();
  });

  it("编号 → 解释：术语表里有的链到术语表，没有的链到 EVOLUTION.md / DIFFERENCES.md 表里那一行；§ 节号链到标题", async () => {
    disposeMdItInstance();
    const md = await createMarkdownRenderer(root);
    const codes = codeIndex(md, root);
    expect(codes.R1).toBe("/glossary.html#r1");
    expect(codes.D4).toBe("/glossary.html#d4");
    expect(codes.R4).toBe("/evolution.html#r4");
    expect(codes.D23).toBe("/evolution.html#d23");
    expect(codes.F13).toBe("/differences.html#f13");
    expect(codes["§9"]).toBe("/evolution.html#9-决策");
    expect(codes["§1"]).toBe("/evolution.html#1-元规则约束所有类型演化");
    expect(Object.keys(codes).some((c) => c.startsWith("TERM"))).toBe(false);
    expect(splitCodes("见 D4、F13/F2（R4 ②），ADR1 和 D4x 不算", codes)).toEqual([
      "见 ",
      { code: "D4", href: "/glossary.html#d4" },
      "、",
      { code: "F13", href: "/differences.html#f13" },
      "/",
      { code: "F2", href: "/differences.html#f2" },
      "（",
      { code: "R4", href: "/evolution.html#r4" },
      " ②），ADR1 和 D4x 不算",
    ]);
    disposeMdItInstance();
  });

  it("markdown 插件：改写链接、链上编号和 Pi 路径、参考页的行锚点、参考页里的 HTML 只放行锚点", async () => {
    disposeMdItInstance();
    const codes = { R1: "/glossary.html#r1", R4: "/evolution.html#r4", D4: "/glossary.html#d4", F13: "/differences.html#f13", D23: "/evolution.html#d23" };
    const md = await createMarkdownRenderer(root, { highlight: plainBlock, anchor: { slugify: githubSlug }, config: (m) => readerLinks(m, { site, codes: () => codes }) });
    const lesson = md.render(
      [
        "## 源码溯源",
        "",
        "差别列在 [fidelity/DIFFERENCES.md](../fidelity/DIFFERENCES.md)：F13（D4，R4 ②）。规则见 [R1](../GLOSSARY.md#r1)。",
        "",
        "`packages/agent/src/agent-loop.ts` 的 `runAgentLoop`；目录 `packages/coding-agent/docs/`；不存在的 `packages/nope/x.ts`；测试 [x](../tests/x.ts)。",
        "",
        "标题里的 R1 不链：",
        "",
        "### R1 的由来",
      ].join("\n"),
      { relativePath: "s04.md" },
    );
    expect(lesson).toContain('href="/differences.html"');
    expect(lesson).toContain('<a href="/differences.html#f13" class="lp-code-ref">F13</a>');
    expect(lesson).toContain('<a href="/glossary.html#d4" class="lp-code-ref">D4</a>');
    expect(lesson).toContain('<a href="/evolution.html#r4" class="lp-code-ref">R4</a> ②');
    expect(lesson).toContain('<a href="/glossary.html#r1" class="lp-code-ref">R1</a>');
    expect(lesson).toContain(`<a href="${piUrl("packages/agent/src/agent-loop.ts")}" class="lp-pi-path"`);
    expect(piUrl("packages/agent/src/agent-loop.ts")).toBe("https://github.com/earendil-works/pi/blob/v1.6.0/packages/agent/src/agent-loop.ts");
    expect(lesson).toContain(`href="https://github.com/earendil-works/pi/tree/v1.6.0/packages/coding-agent/docs"`);
    expect(lesson).not.toContain("packages/nope/x.ts</code></a>");
    expect(lesson).toContain('<span class="lp-repo-path">x</span>');
    expect(lesson).toMatch(/<h3 id="r1-的由来"[^>]*>R1 的由来/);

    const evolutionPage = REF_PAGES.find((r) => r.id === "evolution");
    if (evolutionPage === undefined) throw new Error("no evolution page");
    const html = md.render(refPageMarkdown(evolutionPage, evolution).replace(/^---[\s\S]*?---\n/, ""), { relativePath: "evolution.md" });
    expect(html).toContain('<tr id="r1">');
    expect(html).toContain('<tr id="d23">');
    expect(html).toContain('id="9-决策"');
    // 定义它的那一格不链出去，别的格子里的编号照链
    expect(html).toMatch(/<td>D4<\/td>\s*<td>每次回答一条助手消息，见 <a href="\/differences.html#f13"/);
    expect(html).toContain("AsyncGenerator&lt;ProviderEvent&gt;");
    expect(html).toContain("&lt;details&gt;");
    expect(html).toContain("<div v-pre");

    const glossaryPage = REF_PAGES.find((r) => r.id === "glossary");
    if (glossaryPage === undefined) throw new Error("no glossary page");
    const g = md.render(glossary, { relativePath: "glossary.md" });
    // 条目自己的名字不链到自己，提到的别的编号照链；相对链接改成站内页面
    expect(g).toContain('<a id="r1"></a><strong>R1</strong>');
    expect(g).toContain('<a href="/evolution.html#r4" class="lp-code-ref">R4</a>');
    expect(g).toContain('href="/evolution.html#9-决策"');
    disposeMdItInstance();
  });

  it("Mermaid 图画成 SVG：浅色、深色两份，不去外网取字体；markdown 插件把代码块换成图，没画的照旧是代码块", async () => {
    const source = 'flowchart TD\n  a["用户输入"] --> b["runOneTurn"]:::new\n  classDef new fill:#d1fadf,stroke:#12b76a';
    const d = await renderDiagram(source);
    expect(d.id).toBe(diagramId(source));
    for (const svg of [d.light, d.dark]) {
      expect(svg).toMatch(/^<svg /);
      expect(svg).not.toContain("@import");
      expect(svg).toContain("runOneTurn");
    }
    // 深色版：浅绿底上的字是深色
    expect(d.dark).toMatch(/fill="#1b1b1f"[^>]*>runOneTurn/);
    expect(d.width).toBeGreaterThan(0);
    disposeMdItInstance();
    const md = await createMarkdownRenderer(root, {
      highlight: plainBlock,
      config: (m) => readerLinks(m, { site, codes: () => ({}), diagrams: () => ({ [d.id]: { width: d.width, height: d.height } }) }),
    });
    const html = md.render(["```mermaid", source, "```", "", "```mermaid", "flowchart TD\n  x --> y", "```"].join("\n"), { relativePath: "s04.md" });
    expect(html).toContain(`<img class="lp-diagram-light" src="/lp/diagrams/${d.id}.svg" width="${d.width}"`);
    expect(html).toContain(`src="/lp/diagrams/${d.id}-dark.svg"`);
    expect(html).toContain('<div class="language-mermaid">');
    expect(html.match(/<figure/g)?.length).toBe(1);
    disposeMdItInstance();
  });

  it("没有术语表时照样能生成：参考页只有 EVOLUTION.md 和 DIFFERENCES.md", () => {
    const bare = mkdtempSync(join(tmpdir(), "lp-site-bare-"));
    writeFileSync(join(bare, "EVOLUTION.md"), evolution);
    expect(presentRefPages(bare).map((r) => r.id)).toEqual(["evolution"]);
    rmSync(bare, { recursive: true, force: true });
  });
});

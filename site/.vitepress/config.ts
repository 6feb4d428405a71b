// VitePress 配置。页面由 site/build.ts 生成到 site/.gen（srcDir），站点输出到 site/dist。
// 侧栏从仓库里现有的课生成；markdown 里指向仓库文件的相对链接在这里改写成站内链接。
import { type MarkdownRenderer, defineConfig } from "vitepress";
import { loadCourse } from "../lib/course.ts";

const lessons = loadCourse();

type CoreRule = Parameters<MarkdownRenderer["core"]["ruler"]["push"]>[1];
type Token = NonNullable<Parameters<CoreRule>[0]["tokens"][number]["children"]>[number];

/** 仓库里的相对链接：某课的 README → 那一课的页面；某课的 code.ts → 页面的代码一节；别的文件不在站里，去掉链接只留文字。 */
function rewriteRepoLinks(md: MarkdownRenderer): void {
  md.core.ruler.push("lp_repo_links", (state) => {
    for (const block of state.tokens) {
      if (block.type !== "inline" || block.children === null) continue;
      const stack: Token[] = [];
      for (const token of block.children) {
        if (token.type === "link_open") {
          const href = token.attrGet("href") ?? "";
          stack.push(token);
          if (/^[a-z][a-z0-9+.-]*:|^\/|^#/i.test(href)) continue;
          const readme = /^(s\d\d)_[a-z_]+\/(?:README\.md)?(#.*)?$/.exec(href);
          const code = /^(s\d\d)_[a-z_]+\/code\.ts$/.exec(href);
          if (readme !== null && lessons.some((l) => l.id === readme[1])) token.attrSet("href", `/${readme[1]}${readme[2] ?? ""}`);
          else if (code !== null && lessons.some((l) => l.id === code[1])) token.attrSet("href", `/${code[1]}#code`);
          else {
            token.tag = "span";
            token.attrs = [["class", "lp-repo-path"]];
          }
        } else if (token.type === "link_close") {
          const open = stack.pop();
          if (open !== undefined && open.tag === "span") token.tag = "span";
        }
      }
    }
  });
}

export default defineConfig({
  lang: "zh-CN",
  title: "learn-pi-agent",
  description: "十二节课，从零长出一个 mini Pi",
  srcDir: ".gen",
  outDir: "dist",
  cacheDir: ".vitepress/cache",
  cleanUrls: false,
  lastUpdated: false,
  head: [["meta", { name: "theme-color", content: "#3c8772" }]],
  // 每课一页带着整份高亮过的 code.ts 和差异（s12 约 0.5 MB，压缩后约十分之一），不是打包出了问题。
  vite: { build: { chunkSizeWarningLimit: 1024 } },
  markdown: {
    lineNumbers: false,
    config: (md) => rewriteRepoLinks(md),
  },
  themeConfig: {
    nav: [
      { text: "首页", link: "/" },
      { text: "链路", link: "/#chain" },
      { text: `课程（${lessons.length} 节）`, link: `/${lessons[0]?.id ?? "s01"}` },
    ],
    sidebar: [
      {
        text: "课程",
        items: lessons.map((l) => ({ text: `${l.id} ${l.topic}`, link: `/${l.id}` })),
      },
    ],
    outline: { label: "本页内容", level: [2, 3] },
    docFooter: { prev: "上一课", next: "下一课" },
    darkModeSwitchLabel: "深色模式",
    lightModeSwitchTitle: "切换到浅色",
    darkModeSwitchTitle: "切换到深色",
    sidebarMenuLabel: "目录",
    returnToTopLabel: "回到顶部",
    langMenuLabel: "语言",
    notFound: { title: "没有这一页", quote: "课程只有这些页面。", linkText: "回首页" },
    footer: { message: "由 npm run site 从仓库里的课文、代码、API 报告和录下的回放生成。" },
  },
});

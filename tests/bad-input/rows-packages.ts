// 坏输入表：包——清单的每个字段，和重名（s12 起，D13）。
// 每行写明不可信的输入和预期的结构化结果（行的形状和写行的小函数在 ./harness.ts），tests/bad-input.test.ts 对每一课跑。
import { type Row, goodPackage, installRow, packageWithManifest, refused } from "./harness.ts";

export const ROWS_PACKAGES: Row[] = [
  // ── 包清单：每个字段 ──
  ...(
    [
      ["package-null", "包是 null", null, /^invalid package: package: /],
      ["package-string", "包是字符串", "pkg", /^invalid package: package: /],
      ["manifest-missing", "没有 manifest", { contents: goodPackage().contents }, /^invalid package: manifest: /],
      ["manifest-name-missing", "manifest.name 缺失", packageWithManifest({ name: undefined }), /^invalid package: manifest\.name: /],
      ["manifest-name-empty", "manifest.name 是空串", packageWithManifest({ name: "" }), /^invalid package: manifest\.name: /],
      ["manifest-name-number", "manifest.name 不是字符串", packageWithManifest({ name: 42 }), /^invalid package: manifest\.name: /],
      ["manifest-tools-missing", "manifest.tools 缺失", packageWithManifest({ tools: undefined }), /^invalid package: manifest\.tools: /],
      ["manifest-tools-string", "manifest.tools 不是数组", packageWithManifest({ tools: "greet" }), /^invalid package: manifest\.tools: /],
      ["manifest-tools-number", "manifest.tools 里有非字符串", packageWithManifest({ tools: [42] }), /^invalid package: manifest\.tools\.0: /],
      ["manifest-commands-missing", "manifest.commands 缺失", packageWithManifest({ commands: undefined }), /^invalid package: manifest\.commands: /],
      ["manifest-commands-object", "manifest.commands 不是数组", packageWithManifest({ commands: { ver: "x" } }), /^invalid package: manifest\.commands: /],
      ["manifest-commands-number", "manifest.commands 里有非字符串", packageWithManifest({ commands: [null] }), /^invalid package: manifest\.commands\.0: /],
      ["manifest-resources-missing", "manifest.resources 缺失", packageWithManifest({ resources: undefined }), /^invalid package: manifest\.resources: /],
      ["manifest-resources-string", "manifest.resources 不是数组", packageWithManifest({ resources: "skills/hello" }), /^invalid package: manifest\.resources: /],
      ["manifest-resources-number", "manifest.resources 里有非字符串", packageWithManifest({ resources: [1] }), /^invalid package: manifest\.resources\.0: /],
      ["contents-missing", "没有 contents", { manifest: goodPackage().manifest }, /^invalid package: contents: /],
      ["contents-not-record", "contents 是数组", { ...goodPackage(), contents: ["hello {who}"] }, /^invalid package: contents: /],
      ["contents-value-number", "contents 里的值不是字符串", { ...goodPackage(), contents: { ...goodPackage().contents, greet: 42 } }, /^invalid package: contents\.greet: /],
      ["tools-entry-missing", "manifest.tools 列了 contents 里没有的名字", packageWithManifest({ tools: ["greet", "ghost"] }), /^package "pkg": manifest\.tools lists "ghost", but contents has no entry "ghost"$/],
      ["commands-entry-missing", "manifest.commands 列了 contents 里没有的名字", packageWithManifest({ commands: ["ghost"] }), /^package "pkg": manifest\.commands lists "ghost"/],
      ["resources-entry-missing", "manifest.resources 列了 contents 里没有的名字", packageWithManifest({ resources: ["skills/ghost"] }), /^package "pkg": manifest\.resources lists "skills\/ghost"/],
      ["resource-unknown-kind", "资料名既不是 AGENTS.md 也不在 skills/、prompts/ 下", { ...packageWithManifest({ resources: ["notes.txt"] }), contents: { ...goodPackage().contents, "notes.txt": "x" } }, /^package "pkg": manifest\.resources: "notes\.txt" is not AGENTS\.md/],
    ] as [string, string, unknown, RegExp][]
  ).map(
    ([id, input, pkg, error]): Row => ({ id, since: "s12", input, run: (h) => installRow(h, pkg), expected: refused(error) }),
  ),

  // ── 重名：工具、命令、包（D13「任何冲突整包拒绝」） ──
  {
    id: "clash-tool",
    since: "s12",
    input: "包里的工具和已有工具重名",
    run: (h) => installRow(h, { manifest: { name: "p", tools: ["taken"], commands: ["fresh"], resources: ["skills/new"] }, contents: { taken: "x", fresh: "y", "skills/new": "New." } }),
    expected: refused(/^package "p": tool "taken" is already registered; nothing was installed$/),
  },
  {
    id: "clash-command",
    since: "s12",
    input: "包里的命令和已有命令重名",
    run: (h) => installRow(h, { manifest: { name: "p", tools: ["fresh"], commands: ["mine"], resources: ["skills/new"] }, contents: { fresh: "x", mine: "y", "skills/new": "New." } }),
    expected: refused(/^package "p": command "mine" is already registered; nothing was installed$/),
  },
  {
    id: "clash-package-name",
    since: "s12",
    input: "同名的包装第二次（第二次只带资料，工具/命令查重拦不住它）",
    run: (h) =>
      installRow(h, { manifest: { name: "pkg", tools: [], commands: [], resources: ["skills/again"] }, contents: { "skills/again": "Again." } }, (b) =>
        h.mod.installPackage(b.agent, h.mod.loadPackage(goodPackage())),
      ),
    expected: refused(/"pkg".*already installed|already installed.*"pkg"/),
  },
  {
    id: "clash-resource-name",
    since: "s12",
    input: "包里的技能和项目自己的技能同名（D40：包照样装上；加载时先来的算数，项目自己的那份进系统提示，不信任时两份都不进）",
    async run(h) {
      const b = h.agent({ resources: [{ kind: "skill", name: "mine", content: "Mine." }], trust: "trusted" });
      const pkg = { manifest: { name: "p", tools: [], commands: [], resources: ["skills/mine", "skills/theirs"] }, contents: { "skills/mine": "Theirs.", "skills/theirs": "Only theirs." } };
      h.mod.installPackage(b.agent, h.mod.loadPackage(pkg));
      const skills = (h.mod.buildProviderInput(b.agent).systemPrompt ?? "").split("\n").filter((line) => line.startsWith("- "));
      b.agent.trust = "untrusted";
      return { skills, untrustedPrompt: h.mod.buildProviderInput(b.agent).systemPrompt === h.mod.SYSTEM_PREAMBLE };
    },
    expected: { skills: ["- mine: Mine.", "- theirs: Only theirs."], untrustedPrompt: true },
  },
];

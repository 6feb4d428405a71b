// 阶段表（手写的数据）：每课的练习分成几个按顺序做的阶段，每个阶段单独能变绿。npm run check 按它分组报告，停在第一个没过的阶段。
// 每个阶段写明：一个短标题、它要你做什么（一句话）、它包含哪几处空白（名字和 tooling/practice/stub.ts 起的一样，
// 如 `ToolRegistry.run`、`runEventedToolLoop › finish`；按练习的顺序，主角在前）、该回头读 README 的哪一小节。
// 哪些测试归哪个阶段、每个测试靠哪几处空白不写在这里：由 npm run gen:stages 真跑出来，存在 stage-tests.json。
// 读这两份数据的函数在 stage-lookup.ts；表和练习文件、README 对得上吗，由 tests/practice/stages.test.ts 核对。

export type Stage = {
  /** 短标题，报告里「你在第 2 阶段（共 4 个）：<title>」。 */
  title: string;
  /** 这个阶段要你做什么：一句学习者的话。 */
  asks: string;
  /** 这个阶段要填的空白，名字和 makePractice 给的 Stub.name 一样；按练习的顺序，主角在前（inStageOrder、blame 都照它）。 */
  stubs: readonly string[];
  /** 该回头读的 README 小节：「工作原理」里的 H3 标题（或加粗开头的段落），和 Stub.section 同一种写法。 */
  section: string;
};

export const STAGES: Readonly<Record<string, readonly Stage[]>> = {
  s01: [
    {
      title: "一轮对话",
      asks: "存下用户的话，问 provider，存下回答再写出来；provider 抛错也只变成一条出错的回答",
      stubs: ["runOneTurn"],
      section: "一轮对话：runOneTurn",
    },
  ],
  s02: [
    {
      title: "登记工具",
      asks: "登记时存一份拷贝，同名的不收；清单按登记的顺序交出，交出去的也是拷贝",
      stubs: ["ToolRegistry.register", "ToolRegistry.getSpecs"],
      section: "唯一的来源：ToolRegistry",
    },
    {
      title: "请求带上清单",
      asks: "拼请求只在 buildProviderInput 一处，历史和工具清单都从 agent 上取",
      stubs: ["buildProviderInput", "runOneTurn"],
      section: "拼请求只有一个地方：buildProviderInput",
    },
  ],
  s03: [
    {
      title: "边收边拼",
      asks: "把事件流拼成一条回答：流中途断了、出错了，已经收到的文字留下，再写明原因",
      stubs: ["collectAssistantMessage"],
      section: "边收边拼：collectAssistantMessage",
    },
    {
      title: "一轮改读事件流",
      asks: "runOneTurn 不再等一整段文字，改成把 provider 的事件流交给 collectAssistantMessage",
      stubs: ["runOneTurn"],
      section: "runOneTurn 只改了一行",
    },
  ],
  s04: [
    {
      title: "执行一个工具",
      asks: "register 连参数表一起存，run 查工具、验参数、调 handler，任何出错都变成一句 error: 开头的结果",
      stubs: ["ToolRegistry.register", "ToolRegistry.getSpecs", "ToolRegistry.run"],
      section: "3. 谁来执行：ToolRegistry 的 run",
    },
    {
      title: "从流里拣出调用",
      asks: "事件原样往下传，顺手把 tool_call 事件里的调用记下来",
      stubs: ["recordToolCalls"],
      section: "4. 从事件流里把调用拣出来",
    },
    {
      title: "循环和上限",
      asks: "问模型、执行它要的工具、把结果交回去，直到回答不再要工具，最多问 maxTurns 次",
      stubs: ["runEventedToolLoop", "buildProviderInput", "runOneTurn"],
      section: "5. 循环本身：runEventedToolLoop",
    },
  ],
  s05: [
    {
      title: "套在外面的那一层",
      asks: "执行前问 beforeToolCall，执行后交给 afterToolCall，钩子出错也只变成一条结果",
      stubs: ["executeToolCall"],
      section: "3. 套在外面的那一层：executeToolCall",
    },
    {
      title: "焊进循环",
      asks: "循环执行工具时改走 executeToolCall",
      stubs: ["runEventedToolLoop"],
      section: "4. 焊进循环",
    },
  ],
  s06: [
    {
      title: "拍快照",
      asks: "一轮开头把历史和工具清单整份复制下来，请求从快照拼",
      stubs: ["createTurnSnapshot", "buildProviderInput", "toProviderMessage"],
      section: "2. 拍快照：createTurnSnapshot",
    },
    {
      title: "一轮以快照为准",
      asks: "这一轮的每次请求都从快照出发，只接上本轮自己产生的消息",
      stubs: ["runEventedToolLoop"],
      section: "3. 本轮自己的消息另外存：turnMessages",
    },
  ],
  s07: [
    {
      title: "挂节点、挪指针",
      asks: "append 挂一个新节点并把指针挪过去，moveTo 只挪指针，allEntries 交出全部节点",
      stubs: ["SessionTree.append", "SessionTree.moveTo", "SessionTree.allEntries"],
      section: "2. SessionTree：挂节点、挪指针",
    },
    {
      title: "从叶子走回根",
      asks: "currentPath 从指针所在的节点一路走回根，再倒成从根到叶子的顺序",
      stubs: ["SessionTree.currentPath", "toAgentMessage"],
      section: "3. currentPath：从叶子走回根",
    },
    {
      title: "历史换成树",
      asks: "存消息改成挂到树上，发给模型的是当前路径",
      stubs: ["buildProviderInput", "runEventedToolLoop › store", "runOneTurn"],
      section: "4. 这是升级：AgentState 的 messages 从数组换成树",
    },
  ],
  s08: [
    {
      title: "资料从一个口子出来",
      asks: "ResourceLoader.load 交出全部资料，每次都是新的副本",
      stubs: ["ResourceLoader.load"],
      section: "2. ResourceLoader：资料从这一个口子出来",
    },
    {
      title: "拼系统提示",
      asks: "按固定顺序把资料拼成系统提示，技能只列一行索引",
      stubs: ["buildSystemPrompt"],
      section: "3. buildSystemPrompt：按固定顺序拼",
    },
    {
      title: "请求带上系统提示",
      asks: "buildProviderInput 把系统提示放进请求，工具清单照旧",
      stubs: ["buildProviderInput"],
      section: "4. ProviderInput 多了 systemPrompt，tools 还在",
    },
  ],
  s09: [
    {
      title: "装扩展",
      asks: "use 让扩展登记工具、命令和事件处理，先记在一边，顺利装完才生效；装到一半抛错的扩展什么都不留下",
      stubs: ["ExtensionRuntime.use", "ToolRegistry.register"],
      section: "4. ExtensionRuntime：装扩展、发事件、跑命令",
    },
    {
      title: "发事件、跑命令",
      asks: "emit 把事件交给每个处理函数，runCommand 跑命令；扩展出错只记账，不打断别人",
      stubs: ["ExtensionRuntime.emit", "ExtensionRuntime.runCommand"],
      section: "5. emit 和 runCommand：出错只记账",
    },
    {
      title: "循环说出事件",
      asks: "循环每存一条消息、每轮收尾，都对扩展说一句",
      stubs: ["runEventedToolLoop", "runEventedToolLoop › store", "runEventedToolLoop › finish"],
      section: "2. RuntimeEvent：core 对外说的两句话",
    },
  ],
  s10: [
    {
      title: "循环攒事件",
      asks: "循环不再自己写行，把这一轮的事件攒起来，收尾时交给运行模式",
      stubs: ["runEventedToolLoop"],
      section: "第二步：循环不再写行，改成攒事件",
    },
    {
      title: "给人看的 PrintMode",
      asks: "PrintMode 只写出每轮的最终回答",
      stubs: ["PrintMode.render"],
      section: "第三步：给人看的 PrintMode",
    },
    {
      title: "给程序读的 JsonMode",
      asks: "JsonMode 每个事件写一行 JSON",
      stubs: ["JsonMode.render"],
      section: "第四步：给程序读的 JsonMode",
    },
  ],
  s11: [
    {
      title: "load 看信任",
      asks: "ResourceLoader.load 带上信任：不信任的项目，项目自己的资料一份不交",
      stubs: ["ResourceLoader.load"],
      section: "第二步：load 多一个参数。这是升级",
    },
    {
      title: "组装输入时用信任",
      asks: "buildProviderInput 把 agent 的信任交给 loader",
      stubs: ["buildProviderInput"],
      section: "第三步：信任挂在 Agent 上，在组装输入时用",
    },
  ],
  s12: [
    {
      title: "验包",
      asks: "loadPackage 先验形状，再照清单逐个取内容，缺了哪个就点哪个的名",
      stubs: ["loadPackage", "pick", "resourceKind"],
      section: "第三步：再验清单和内容对不对得上",
    },
    {
      title: "数据变成工具",
      asks: "templateTool 把带占位的文字变成工具，调用时把参数填回去",
      stubs: ["templateTool"],
      section: "第四步：数据变成工具",
    },
    {
      title: "资料叠一层",
      asks: "包里的资料叠在原来的 loader 上面，交不交出来照旧看信任",
      stubs: ["PackageResourceLoader.load"],
      section: "第五步：资料叠一层 loader",
    },
    {
      title: "装，但先查冲突",
      asks: "installPackage 先查同名的包、工具和命令，全都不冲突才装上",
      stubs: ["installPackage", "ExtensionRuntime.hasCommand"],
      section: "第六步：装，但先查冲突",
    },
  ],
};

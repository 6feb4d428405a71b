// 学习者的报告里不许出现的东西（维护者的命令、测试框架、调用栈）：tests/practice 的快测试和 exercises.proof.ts、tests/graduation 的每一份报告都拿它核对。
// 命令要整词对上：演示项目的规矩「提交前先跑 pnpm test」是学习者的内容，不是维护者的命令。
export const MAINTAINER_TEXT: readonly RegExp[] = [/(?<![\w-])npm run gen/, /(?<![\w-])npm test/, /vitest/i, /^\s+at .+:\d+:\d+\)?$/m, /\x1b\[/];

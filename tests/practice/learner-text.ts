// 学习者的报告里不许出现的东西（维护者的命令、测试框架、调用栈）：tests/practice 的快测试和 exercises.proof.ts 的每一份报告都拿它核对。
export const MAINTAINER_TEXT: readonly RegExp[] = [/npm run gen/, /npm test/, /vitest/i, /^\s+at .+:\d+:\d+\)?$/m, /\x1b\[/];

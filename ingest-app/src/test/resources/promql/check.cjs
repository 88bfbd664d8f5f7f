// Parses PromQL expressions with Prometheus's own grammar (@prometheus-io/lezer-promql) and prints,
// per expression, its syntax errors and metric names as one JSON line.
// Input: stdin, a JSON array of strings. Output: stdout, a JSON array of
// {"expr": ..., "errors": [{"from": n, "to": n, "text": ...}], "metrics": [...]}.
// Usage: node check.cjs <node_modules folder> < expressions.json
const path = require('path');
const { parser } = require(path.join(process.argv[2], '@prometheus-io', 'lezer-promql'));
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => (input += chunk));
process.stdin.on('end', () => {
  const results = JSON.parse(input).map((expr) => {
    const errors = [];
    const metrics = new Set();
    parser.parse(expr).iterate({
      enter(node) {
        if (node.type.isError) {
          errors.push({ from: node.from, to: node.to, text: expr.slice(Math.max(0, node.from - 10), node.to + 10) });
        }
        const parent = node.node.parent;
        if (node.name === 'Identifier' && parent
            && (parent.name === 'VectorSelector' || parent.name === 'MetricIdentifier')) {
          metrics.add(expr.slice(node.from, node.to));
        }
      },
    });
    return { expr, errors, metrics: [...metrics].sort() };
  });
  process.stdout.write(JSON.stringify(results));
});

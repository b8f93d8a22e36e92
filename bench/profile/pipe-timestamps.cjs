// Preloaded into a server (node --require) by navigate-segments.mjs: notes the time of every read and write on the
// process's sockets and pipes (stdin, stdout, the browser's pipe) and writes them to $PIPE_TIMESTAMPS as JSON.
const fs = require('node:fs');
const net = require('node:net');

const log = [];
const now = () => Number(process.hrtime.bigint() / 1000n);
const fdOf = (socket) => socket._handle?.fd ?? '?';
const write = net.Socket.prototype.write;
net.Socket.prototype.write = function (chunk, ...rest) {
  if (fdOf(this) !== 2) log.push([now(), `W${fdOf(this)}`, String(chunk).slice(0, 120)]);
  return write.call(this, chunk, ...rest);
};
const push = net.Socket.prototype.push;
net.Socket.prototype.push = function (chunk, ...rest) {
  if (chunk) log.push([now(), `R${fdOf(this)}`, String(chunk)]);
  return push.call(this, chunk, ...rest);
};
// The server may end without an 'exit' event reaching us; write every second instead.
setInterval(() => fs.writeFileSync(process.env.PIPE_TIMESTAMPS, JSON.stringify(log)), 1000).unref();

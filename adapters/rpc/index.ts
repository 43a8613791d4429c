// graceful-ai/rpc entry point. Shared file: add exports with small insertions only.
export { RpcError, type RpcErrorOptions } from '../../src/errors/rpc-error.js';
export { RpcClient, type RpcClientOptions, type RpcSpawnOptions, type RpcStreamOptions } from './client.js';
export type {
  RpcCommand,
  RpcCommandType,
  RpcId,
  RpcResponse,
  RpcServerLine,
  RpcSession,
  RpcState,
} from './protocol.js';
export { type RpcServer, type RpcServerOptions, runRpcServer } from './server.js';

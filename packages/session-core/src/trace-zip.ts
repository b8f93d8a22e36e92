// Fits a saved trace zip within the bytes its session may still write: whole, cut (resources that do not fit left out), or not at all.
import { open, rm, stat, type FileHandle } from 'node:fs/promises';
import { moveFile } from './downloads.js';

/** What landed where a file was placed: its bytes, and how many of its resources were left out (0 when whole). */
export interface Placed {
  bytes: number;
  leftOut: number;
}

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_HEADER = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
/** The end record's size, and the most a zip comment can add to it. */
const END_SIZE = 22;
const MAX_COMMENT = 0xffff;
/** Flag bit 3: sizes and CRC follow the data instead of sitting in the local header. */
const DATA_DESCRIPTOR = 0x0008;

interface Entry {
  name: Buffer;
  flags: number;
  method: number;
  time: number;
  date: number;
  crc: number;
  compressed: number;
  uncompressed: number;
  localOffset: number;
}

/**
 * Moves `staged` (a trace zip written outside the session's folder) to `target` when it is at most `room` bytes; else
 * writes to `target` a copy within `room`: the trace's own logs (`*.trace`, `*.network`, `*.stacks`), then each resource
 * (response bodies, screenshots, screencast frames) that still fits, the rest left out. Answers undefined, writing
 * nothing, when not even the trace's logs fit or the zip is one this cannot read (zip64). `staged` is left for the caller to remove.
 */
export async function placeTraceZip(staged: string, target: string, room: number): Promise<Placed | undefined> {
  const { size } = await stat(staged);
  if (size <= room) {
    await moveFile(staged, target);
    return { bytes: size, leftOut: 0 };
  }
  const source = await open(staged, 'r');
  try {
    const entries = await readEntries(source, size);
    if (entries === undefined) return undefined;
    const cost = (entry: Entry) => 30 + 46 + 2 * entry.name.length + entry.compressed;
    let bytes = END_SIZE;
    const kept = new Set<Entry>();
    const isResource = (entry: Entry) => !/^[^/]+\.(?:trace|network|stacks)$/.test(entry.name.toString('utf8'));
    for (const entry of entries.filter((item) => !isResource(item))) {
      bytes += cost(entry);
      kept.add(entry);
    }
    if (bytes > room) return undefined;
    for (const entry of entries.filter(isResource)) {
      if (bytes + cost(entry) > room) continue;
      bytes += cost(entry);
      kept.add(entry);
    }
    await writeZip(
      source,
      entries.filter((entry) => kept.has(entry)),
      target,
    );
    return { bytes: (await stat(target)).size, leftOut: entries.length - kept.size };
  } finally {
    await source.close();
  }
}

async function readAt(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

/** The entries of the central directory, or undefined for what is not a plain zip (zip64, several disks, damaged). */
async function readEntries(handle: FileHandle, size: number): Promise<Entry[] | undefined> {
  const tailStart = Math.max(0, size - END_SIZE - MAX_COMMENT);
  const tail = await readAt(handle, tailStart, size - tailStart);
  let end = tail.length - END_SIZE;
  while (end >= 0 && tail.readUInt32LE(end) !== END_OF_CENTRAL_DIRECTORY) end -= 1;
  if (end < 0) return undefined;
  const count = tail.readUInt16LE(end + 10);
  const directorySize = tail.readUInt32LE(end + 12);
  const directoryOffset = tail.readUInt32LE(end + 16);
  if (count === 0xffff || directoryOffset === 0xffffffff || directoryOffset + directorySize > size) return undefined;
  const directory = await readAt(handle, directoryOffset, directorySize);
  const entries: Entry[] = [];
  let offset = 0;
  for (let index = 0; index < count; index += 1) {
    if (offset + 46 > directory.length || directory.readUInt32LE(offset) !== CENTRAL_HEADER) return undefined;
    const nameLength = directory.readUInt16LE(offset + 28);
    const entry: Entry = {
      flags: directory.readUInt16LE(offset + 8),
      method: directory.readUInt16LE(offset + 10),
      time: directory.readUInt16LE(offset + 12),
      date: directory.readUInt16LE(offset + 14),
      crc: directory.readUInt32LE(offset + 16),
      compressed: directory.readUInt32LE(offset + 20),
      uncompressed: directory.readUInt32LE(offset + 24),
      localOffset: directory.readUInt32LE(offset + 42),
      name: Buffer.from(directory.subarray(offset + 46, offset + 46 + nameLength)),
    };
    if (entry.compressed === 0xffffffff || entry.uncompressed === 0xffffffff || entry.localOffset === 0xffffffff) return undefined;
    entries.push(entry);
    offset += 46 + nameLength + directory.readUInt16LE(offset + 30) + directory.readUInt16LE(offset + 32);
  }
  return entries;
}

/** Writes `entries` of `source` to `target` as a new zip, their compressed data copied as it is. */
async function writeZip(source: FileHandle, entries: readonly Entry[], target: string): Promise<void> {
  const output = await open(target, 'w', 0o644);
  try {
    let position = 0;
    const write = async (buffer: Buffer) => {
      await output.write(buffer, 0, buffer.length, position);
      position += buffer.length;
    };
    const offsets: number[] = [];
    for (const entry of entries) {
      const local = await readAt(source, entry.localOffset, 30);
      if (local.length < 30 || local.readUInt32LE(0) !== LOCAL_HEADER) throw new Error('a damaged trace zip');
      const dataStart = entry.localOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
      offsets.push(position);
      const header = Buffer.alloc(30);
      header.writeUInt32LE(LOCAL_HEADER, 0);
      header.writeUInt16LE(20, 4);
      writeEntryFields(header, 6, entry);
      await write(Buffer.concat([header, entry.name]));
      for (let copied = 0; copied < entry.compressed; ) {
        const chunk = await readAt(source, dataStart + copied, Math.min(1024 * 1024, entry.compressed - copied));
        if (chunk.length === 0) throw new Error('a damaged trace zip');
        await write(chunk);
        copied += chunk.length;
      }
    }
    const directoryOffset = position;
    for (const [index, entry] of entries.entries()) {
      const header = Buffer.alloc(46);
      header.writeUInt32LE(CENTRAL_HEADER, 0);
      header.writeUInt16LE(20, 4);
      header.writeUInt16LE(20, 6);
      writeEntryFields(header, 8, entry);
      header.writeUInt32LE(offsets[index] as number, 42);
      await write(Buffer.concat([header, entry.name]));
    }
    const end = Buffer.alloc(END_SIZE);
    end.writeUInt32LE(END_OF_CENTRAL_DIRECTORY, 0);
    end.writeUInt16LE(entries.length, 8);
    end.writeUInt16LE(entries.length, 10);
    end.writeUInt32LE(position - directoryOffset, 12);
    end.writeUInt32LE(directoryOffset, 16);
    await write(end);
  } catch (error) {
    await output.close();
    await rm(target, { force: true });
    throw error;
  }
  await output.close();
}

/**
 * The fields a local and a central header share, in the same order, from `at`: flags (sizes in the header, no data
 * descriptor), method, time, date, CRC, sizes and the name's length.
 */
function writeEntryFields(header: Buffer, at: number, entry: Entry): void {
  header.writeUInt16LE(entry.flags & ~DATA_DESCRIPTOR, at);
  header.writeUInt16LE(entry.method, at + 2);
  header.writeUInt16LE(entry.time, at + 4);
  header.writeUInt16LE(entry.date, at + 6);
  header.writeUInt32LE(entry.crc, at + 8);
  header.writeUInt32LE(entry.compressed, at + 12);
  header.writeUInt32LE(entry.uncompressed, at + 16);
  header.writeUInt16LE(entry.name.length, at + 20);
}

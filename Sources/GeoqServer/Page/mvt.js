// Mapbox Vector Tile 2.1 read into plain objects, for the map page's tile layers. Only what the
// page draws and labels is kept: each feature's kind, properties and geometry in the tile's grid
// (0 … extent, y down, the buffer beyond). A malformed tile throws rather than drawing half of it.
"use strict";

const VectorTile = (() => {
  const WIRE_VARINT = 0, WIRE_64 = 1, WIRE_BYTES = 2, WIRE_32 = 5;
  const MOVE_TO = 1, LINE_TO = 2, CLOSE_PATH = 7;
  const KINDS = ["Unknown", "Point", "LineString", "Polygon"];
  const utf8 = new TextDecoder("utf-8");

  // Protobuf's wire format over a slice of the tile's bytes.
  class Reader {
    constructor(bytes, start = 0, end = bytes.length) {
      this.bytes = bytes;
      this.pos = start;
      this.end = end;
    }

    get done() {
      return this.pos >= this.end;
    }

    // Up to 64 bits; arithmetic rather than bit operators, which would cut at 32 bits. Values
    // past 2^53 lose their low bits, which no coordinate, index or id of a served tile reaches.
    varint() {
      let value = 0;
      for (let shift = 0; shift < 70; shift += 7) {
        if (this.pos >= this.end) throw new Error("vector tile: a varint runs past its message");
        const byte = this.bytes[this.pos++];
        value += (byte & 0x7f) * 2 ** shift;
        if (byte < 0x80) return value;
      }
      throw new Error("vector tile: a varint longer than 10 bytes");
    }

    // The bytes of a length-delimited field, as a reader of their own.
    message() {
      const length = this.varint();
      const start = this.pos;
      this.pos += length;
      if (this.pos > this.end) throw new Error("vector tile: a field runs past its message");
      return new Reader(this.bytes, start, this.pos);
    }

    string() {
      const slice = this.message();
      return utf8.decode(this.bytes.subarray(slice.pos, slice.end));
    }

    // Little-endian fixed-size numbers (float and double values).
    fixed(size, read) {
      if (this.pos + size > this.end) throw new Error("vector tile: a fixed field runs past its message");
      const view = new DataView(this.bytes.buffer, this.bytes.byteOffset + this.pos, size);
      this.pos += size;
      return read(view);
    }

    // Calls `read(field, wire)` for every field; a field it does not consume (returns false) is
    // skipped, so that fields of later versions of the format are passed over.
    fields(read) {
      while (!this.done) {
        const tag = this.varint();
        const field = Math.floor(tag / 8), wire = tag % 8;
        if (read(field, wire) === false) this.skip(wire);
      }
    }

    skip(wire) {
      if (wire === WIRE_VARINT) this.varint();
      else if (wire === WIRE_64) this.pos += 8;
      else if (wire === WIRE_BYTES) this.message();
      else if (wire === WIRE_32) this.pos += 4;
      else throw new Error(`vector tile: unknown wire type ${wire}`);
    }

    // A repeated integer field, packed (as the format asks) or not.
    integers(wire, into) {
      if (wire === WIRE_BYTES) {
        const packed = this.message();
        while (!packed.done) into.push(packed.varint());
      } else if (wire === WIRE_VARINT) {
        into.push(this.varint());
      } else {
        return false;
      }
      return true;
    }
  }

  const zigzag = (n) => (n % 2 === 1 ? -(n + 1) / 2 : n / 2);

  // A Value message: exactly one of its fields is set.
  function readValue(reader) {
    let value = null;
    reader.fields((field, wire) => {
      if (field === 1 && wire === WIRE_BYTES) value = reader.string();
      else if (field === 2 && wire === WIRE_32) value = reader.fixed(4, (view) => view.getFloat32(0, true));
      else if (field === 3 && wire === WIRE_64) value = reader.fixed(8, (view) => view.getFloat64(0, true));
      else if (field === 4 && wire === WIRE_VARINT) {
        // int64: a negative number comes as its 64-bit two's complement.
        const n = reader.varint();
        value = n >= 2 ** 63 ? n - 2 ** 64 : n;
      } else if (field === 5 && wire === WIRE_VARINT) value = reader.varint();
      else if (field === 6 && wire === WIRE_VARINT) value = zigzag(reader.varint());
      else if (field === 7 && wire === WIRE_VARINT) value = reader.varint() !== 0;
      else return false;
      return true;
    });
    return value;
  }

  // Twice the ring's signed area by the shoelace formula, in grid units (y down): positive for
  // an exterior ring, negative for a hole (MVT 2.1, 4.3.4.4).
  function doubleArea(ring) {
    let sum = 0;
    for (let i = 0, j = ring.length - 2; i < ring.length; j = i, i += 2) {
      sum += ring[j] * ring[i + 1] - ring[i] * ring[j + 1];
    }
    return sum;
  }

  // The command stream (4.3) as paths of flat [x0, y0, x1, y1, …] arrays: every MoveTo starts
  // one; a ClosePath marks it a ring (closed implicitly, its first point not repeated).
  function readPaths(commands) {
    const paths = [];
    let x = 0, y = 0, path = null;
    for (let i = 0; i < commands.length; ) {
      const command = commands[i] % 8, count = Math.floor(commands[i] / 8);
      i++;
      if (command === CLOSE_PATH) {
        if (path) path.closed = true;
        continue;
      }
      if (command !== MOVE_TO && command !== LINE_TO) throw new Error(`vector tile: unknown command ${command}`);
      if (i + 2 * count > commands.length) throw new Error("vector tile: a command runs past its geometry");
      for (let n = 0; n < count; n++) {
        x += zigzag(commands[i++]);
        y += zigzag(commands[i++]);
        if (command === MOVE_TO || !path) {
          path = [];
          paths.push(path);
        }
        path.push(x, y);
      }
    }
    return paths;
  }

  // Points as [x, y] each; lines as paths; polygons as arrays of rings, the exterior first and
  // its holes after, split where a ring of positive area starts the next polygon. A ring of no
  // area, or a hole before any exterior, has nothing to draw and is dropped.
  function readGeometry(kind, commands) {
    const paths = readPaths(commands);
    if (kind === "Point") {
      const points = [];
      for (const path of paths) for (let i = 0; i < path.length; i += 2) points.push([path[i], path[i + 1]]);
      return points;
    }
    if (kind !== "Polygon") return paths;
    const polygons = [];
    for (const ring of paths) {
      const area = doubleArea(ring);
      if (area > 0) polygons.push([ring]);
      else if (area < 0 && polygons.length) polygons[polygons.length - 1].push(ring);
    }
    return polygons;
  }

  function readFeature(reader, keys, values) {
    const feature = { id: null, kind: "Unknown", properties: {}, geometry: [] };
    const tags = [];
    let commands = [];
    reader.fields((field, wire) => {
      if (field === 1 && wire === WIRE_VARINT) feature.id = reader.varint();
      else if (field === 2) return reader.integers(wire, tags);
      else if (field === 3 && wire === WIRE_VARINT) feature.kind = KINDS[reader.varint()] || "Unknown";
      else if (field === 4) return reader.integers(wire, commands);
      else return false;
      return true;
    });
    for (let i = 0; i + 1 < tags.length; i += 2) {
      if (tags[i] < keys.length && tags[i + 1] < values.length) feature.properties[keys[tags[i]]] = values[tags[i + 1]];
    }
    feature.geometry = readGeometry(feature.kind, commands);
    return feature;
  }

  // The features refer to the layer's keys and values by index, and the format lets them come
  // before those tables: they are read once the whole layer has been seen.
  function readLayer(reader) {
    const layer = { name: "", extent: 4096, version: 1, features: [] };
    const keys = [], values = [], features = [];
    reader.fields((field, wire) => {
      if (field === 1 && wire === WIRE_BYTES) layer.name = reader.string();
      else if (field === 2 && wire === WIRE_BYTES) features.push(reader.message());
      else if (field === 3 && wire === WIRE_BYTES) keys.push(reader.string());
      else if (field === 4 && wire === WIRE_BYTES) values.push(readValue(reader.message()));
      else if (field === 5 && wire === WIRE_VARINT) layer.extent = reader.varint();
      else if (field === 15 && wire === WIRE_VARINT) layer.version = reader.varint();
      else return false;
      return true;
    });
    layer.features = features.map((feature) => readFeature(feature, keys, values));
    return layer;
  }

  // The tile's layers by name.
  function decode(buffer) {
    const reader = new Reader(new Uint8Array(buffer));
    const layers = {};
    reader.fields((field, wire) => {
      if (field !== 3 || wire !== WIRE_BYTES) return false;
      const layer = readLayer(reader.message());
      layers[layer.name] = layer;
      return true;
    });
    return layers;
  }

  return { decode, doubleArea };
})();

// Package microbench holds small functions measured by micro_test.go.
package microbench

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"hash/fnv"
	"math/rand"
	"sort"
	"strconv"
	"strings"
)

// Record is the element type encoded by EncodeRecords.
type Record struct {
	ID    int      `json:"id"`
	Name  string   `json:"name"`
	Tags  []string `json:"tags"`
	Score float64  `json:"score"`
}

// MakeRecords returns n deterministic records.
func MakeRecords(n int) []Record {
	r := rand.New(rand.NewSource(1))
	rs := make([]Record, n)
	for i := range rs {
		rs[i] = Record{
			ID:    i,
			Name:  "record-" + strconv.Itoa(i),
			Tags:  []string{"a", "bb", "ccc"}[:1+r.Intn(3)],
			Score: r.Float64() * 100,
		}
	}
	return rs
}

// EncodeRecords encodes rs as a JSON array, one record at a time.
func EncodeRecords(rs []Record) ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('[')
	for i, r := range rs {
		if i > 0 {
			buf.WriteByte(',')
		}
		b, err := json.Marshal(r)
		if err != nil {
			return nil, err
		}
		buf.Write(b)
	}
	buf.WriteByte(']')
	return buf.Bytes(), nil
}

// RandomInts returns n deterministic pseudo-random ints.
func RandomInts(n int) []int {
	r := rand.New(rand.NewSource(2))
	xs := make([]int, n)
	for i := range xs {
		xs[i] = r.Intn(1 << 30)
	}
	return xs
}

// SortInto copies src into dst (same length) and sorts dst ascending.
func SortInto(dst, src []int) {
	copy(dst, src)
	sort.Ints(dst)
}

// JoinInts formats xs as a comma-separated decimal list.
func JoinInts(xs []int) string {
	var buf []byte
	for i, x := range xs {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = strconv.AppendInt(buf, int64(x), 10)
	}
	return string(buf)
}

// CountHits looks every key up in m, ignoring surrounding white space, and returns how
// many were present.
func CountHits(m map[string]int, keys []string) int {
	hits := 0
	for _, k := range keys {
		if _, ok := m[strings.TrimSpace(k)]; ok {
			hits++
		}
	}
	return hits
}

// Checksum returns the SHA-256 digest of data, after an FNV-1a (64-bit) hash of it is
// recorded in lastFNV for a quick integrity check.
func Checksum(data []byte) [32]byte {
	h := fnv.New64a()
	h.Write(data)
	lastFNV = h.Sum64()
	return sha256.Sum256(data)
}

// lastFNV is the FNV-1a hash of the data last passed to Checksum.
var lastFNV uint64

// Package microbench holds small functions measured by micro_test.go.
package microbench

import (
	"crypto/sha256"
	"encoding/json"
	"math/rand"
	"sort"
	"strconv"
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

// EncodeRecords encodes rs as a JSON array.
func EncodeRecords(rs []Record) ([]byte, error) {
	return json.Marshal(rs)
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
	buf := make([]byte, 0, len(xs)*11)
	for i, x := range xs {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = strconv.AppendInt(buf, int64(x), 10)
	}
	return string(buf)
}

// CountHits looks every key up in m and returns how many were present with a
// non-negative value.
func CountHits(m map[string]int, keys []string) int {
	hits := 0
	for _, k := range keys {
		if _, ok := m[k]; ok {
			if m[k] >= 0 {
				hits++
			}
		}
	}
	return hits
}

// Checksum returns the SHA-256 digest of data.
func Checksum(data []byte) [32]byte {
	return sha256.Sum256(data)
}

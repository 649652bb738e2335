package storage

import (
	"encoding/json"
	"net/http"
	"time"
)

type Membership struct {
	Partitions []string `json:"partitions"`
}

// Each storage server asks the metadata service for its membership after a
// network disruption or at start. If the answer does not come within the
// allowed time, the server retries the request.
var metadataClient = &http.Client{Timeout: 2 * time.Second}

func FetchMembership(server string) (*Membership, error) {
	for {
		resp, err := metadataClient.Get("http://metadata-service/membership?server=" + server)
		if err != nil {
			// timed out: ask again
			continue
		}
		var m Membership
		err = json.NewDecoder(resp.Body).Decode(&m)
		resp.Body.Close()
		if err != nil {
			continue
		}
		return &m, nil
	}
}

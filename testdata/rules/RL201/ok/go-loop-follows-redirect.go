package vault

import (
	"context"
	"net/http"

	"github.com/coder/websocket"
)

type WebsocketClient struct {
	URL        string
	HTTPClient *http.Client
}

// Connect follows the 307s to the leader: each pass dials the address
// the last answer named, not the same one again.
func (w *WebsocketClient) Connect(ctx context.Context) (*websocket.Conn, error) {
	var conn *websocket.Conn
	var resp *http.Response
	var err error
	for hop := 0; hop < 10; hop++ {
		conn, resp, err = websocket.Dial(ctx, w.URL, &websocket.DialOptions{HTTPClient: w.HTTPClient})
		if err == nil {
			break
		}
		if resp == nil {
			break
		} else if resp.StatusCode == http.StatusTemporaryRedirect {
			w.URL = resp.Header.Get("Location")
			continue
		} else {
			break
		}
	}
	return conn, err
}

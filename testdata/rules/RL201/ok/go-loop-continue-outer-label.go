// A listing read page by page (open-policy-agent/gatekeeper dd8507eb97
// `pkg/audit/manager.go`): a failed page goes on to the next kind with
// `continue kindsLoop`, the outer loop's label. That leaves the paging
// loop; nothing is asked again, so it is not a retry at once.
package audit

import "context"

func (am *Manager) auditResources(ctx context.Context, kinds []string) {
kindsLoop:
	for _, kind := range kinds {
		token := ""
		for {
			page, err := am.client.List(ctx, kind, token)
			if err != nil {
				am.log.Error(err, "unable to list objects", "kind", kind)
				continue kindsLoop
			}
			am.review(page.Items)
			token = page.Continue
			if token == "" {
				break
			}
		}
	}
}

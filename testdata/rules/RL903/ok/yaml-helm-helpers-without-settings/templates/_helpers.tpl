{{/* Helpers of the shop chart: text for other templates, no manifest. */}}
{{- define "shop.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end }}

{{- define "shop.selector" -}}
app.kubernetes.io/name: {{ include "shop.name" . }}
{{- end }}

{{- define "shop.port" -}}
- name: http
  containerPort: {{ .Values.port }}
{{- end }}

{{/* A route for one component; expects a dict with "context" and "name". */}}
{{- define "shop.route" -}}
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: {{ .name }}
spec:
  hostnames:
    {{- toYaml .context.Values.hostnames | nindent 4 }}
{{- end }}

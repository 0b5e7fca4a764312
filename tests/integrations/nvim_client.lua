-- Drives headless Neovim as a user would, with the client configuration from docs/editors.md (the file
-- WMAPLINT_SNIPPET): open the definition WMAPLINT_FILE, wait for wmaplint's diagnostic WMAPLINT_CODE about
-- WMAPLINT_TOKEN, apply the quick fix titled like WMAPLINT_FIX_TITLE, wait for the diagnostic to clear. What happened is written as JSON
-- to WMAPLINT_OUT, and Neovim quits; errors are reported there too, never left hanging.

local out_path = os.getenv("WMAPLINT_OUT")
local report = { steps = {} }

local function finish()
  local file = io.open(out_path, "w")
  file:write(vim.fn.json_encode(report))
  file:close()
  vim.cmd("qall!")
end

local function fail(message)
  report.error = message
  finish()
end

local published = {}
local default_publish = vim.lsp.handlers["textDocument/publishDiagnostics"]
vim.lsp.handlers["textDocument/publishDiagnostics"] = function(err, result, ctx, config)
  published[#published + 1] = result
  return default_publish(err, result, ctx, config)
end

local code = os.getenv("WMAPLINT_CODE")
local token = os.getenv("WMAPLINT_TOKEN")

-- Neovim 0.7 keeps the protocol's code in user_data; later versions on the diagnostic itself.
local function code_of(diagnostic)
  local lsp = diagnostic.user_data and diagnostic.user_data.lsp
  return tostring(diagnostic.code or (lsp and lsp.code))
end

local function wmaplint_diagnostic()
  for _, diagnostic in ipairs(vim.diagnostic.get(0)) do
    if diagnostic.source == "wmaplint" and code_of(diagnostic) == code
        and diagnostic.message:find(token, 1, true) then
      return diagnostic
    end
  end
  return nil
end

local function raw_diagnostic()
  local last = published[#published]
  for _, diagnostic in ipairs(last and last.diagnostics or {}) do
    if tostring(diagnostic.code) == code and diagnostic.message:find(token, 1, true) then
      return diagnostic
    end
  end
  return nil
end

local ok, err = pcall(function()
  vim.cmd("filetype on")
  dofile(os.getenv("WMAPLINT_SNIPPET"))
  vim.cmd("edit " .. vim.fn.fnameescape(os.getenv("WMAPLINT_FILE")))
  table.insert(report.steps, "opened as " .. vim.bo.filetype)

  local found = vim.wait(60000, function() return wmaplint_diagnostic() ~= nil end, 50)
  if not found then
    return fail("no " .. code .. " diagnostic arrived; got " .. vim.fn.json_encode(vim.diagnostic.get(0)))
  end
  local diagnostic = wmaplint_diagnostic()
  report.diagnostic = {
    lnum = diagnostic.lnum, col = diagnostic.col, end_col = diagnostic.end_col, message = diagnostic.message,
  }
  local raw = raw_diagnostic()
  report.lsp_range = raw.range

  local clients = (vim.lsp.get_clients or vim.lsp.get_active_clients)({ name = "wmaplint" })
  local client = clients[1]
  report.client = { name = client.name, offset_encoding = client.offset_encoding }
  local params = {
    textDocument = vim.lsp.util.make_text_document_params(0),
    range = raw.range,
    context = { diagnostics = { raw } },
  }
  local responses = vim.lsp.buf_request_sync(0, "textDocument/codeAction", params, 30000) or {}
  local fix
  report.actions = {}
  for _, response in pairs(responses) do
    for _, action in ipairs(response.result or {}) do
      table.insert(report.actions, action.title)
      if fix == nil and action.edit and action.title:find(os.getenv("WMAPLINT_FIX_TITLE"), 1, true) then
        fix = action
      end
    end
  end
  if fix == nil then
    return fail("no quick fix titled like " .. os.getenv("WMAPLINT_FIX_TITLE"))
  end
  vim.lsp.util.apply_workspace_edit(fix.edit, client.offset_encoding)
  report.fixed_line = vim.api.nvim_buf_get_lines(0, diagnostic.lnum, diagnostic.lnum + 1, false)[1]

  report.cleared = vim.wait(60000, function() return wmaplint_diagnostic() == nil end, 50)
  report.remaining = {}
  for _, left in ipairs(vim.diagnostic.get(0)) do
    table.insert(report.remaining, code_of(left) .. " " .. left.message)
  end
  finish()
end)
if not ok then
  fail(tostring(err))
end
